/// A transform of a paged list, built as a value: `map`, `compactMap`, `filter`, separators between
/// neighbours, and a header and a footer row, chained in any order.
///
/// A transform describes what a ``TransformedList`` shows; ``Paginator/transformed(by:)`` applies it to a
/// paginator incrementally: each page is transformed once, when it arrives, and every change of the
/// paginator becomes one change of the transformed list, in transformed indices.
///
/// ```swift
/// let rows = ListTransform<Message, Message>()
///     .filter { !$0.isFromBlockedUser }
///     .map { MessageRow($0) }
///     .separators { before, after in
///         guard let after, before?.day != after.day else { return nil }
///         return MessageRow.dayHeader(after.day)
///     }
/// let list = paginator.transformed(by: rows)
/// ```
///
/// Every closure is `@Sendable`: it runs on the thread that delivers the paginator's notifications (its
/// delivery scheduler, when it has one), never under a lock, and must be pure (the same input gives an
/// equal output), since the transformed list calls it only for rows that are new or changed.
public struct ListTransform<Item: Sendable, Output: Sendable>: Sendable {
    /// The steps, in order, each typed by the rows it takes and makes: the first takes `Item` rows, each
    /// next one the rows of the one before, and the last makes `Output` rows.
    @usableFromInline let steps: [TransformStep]
    /// The header row of an edge state, already passed through the element steps added after it.
    @usableFromInline let header: (@Sendable (ListEdge) -> Output?)?
    /// The footer row of an edge state, already passed through the element steps added after it.
    @usableFromInline let footer: (@Sendable (ListEdge) -> Output?)?
    /// Makes the pipeline that runs this transform (a ``TransformPipeline`` of `Item` and `Output` rows).
    ///
    /// Made here, in inlinable code, so the pipeline's per-page code is compiled in the caller's module
    /// for `Item` and `Output`: every operator makes a new one.
    @usableFromInline let makePipeline: @Sendable () -> AnyObject

    @inlinable
    init(
        steps: [TransformStep], header: (@Sendable (ListEdge) -> Output?)?,
        footer: (@Sendable (ListEdge) -> Output?)?
    ) {
        self.steps = steps
        self.header = header
        self.footer = footer
        makePipeline = {
            TransformPipeline<Item, Output>(
                steps: steps, header: header, footer: footer,
                apply: { pipeline, input in pipeline.apply(input) })
        }
    }

    /// The transform that shows every item as it is; chain operators on it:
    /// `ListTransform<Message, Message>().map { ... }`.
    @inlinable
    public init() where Output == Item {
        self.init(steps: [], header: nil, footer: nil)
    }

    /// Shows `transform` of each row.
    ///
    /// - Parameter transform: Called once for each row that arrives or changes, on the delivering thread.
    /// - Returns: The transform with this step added.
    /// - Complexity: O(1) per row, when the row arrives.
    @inlinable
    public func map<New: Sendable>(_ transform: @escaping @Sendable (Output) -> New) -> ListTransform<Item, New> {
        adding { transform($0) }
    }

    /// Shows `transform` of each row, leaving out the rows it maps to `nil`.
    ///
    /// - Parameter transform: Called once for each row that arrives or changes, on the delivering thread.
    /// - Returns: The transform with this step added.
    @inlinable
    public func compactMap<New: Sendable>(
        _ transform: @escaping @Sendable (Output) -> New?
    ) -> ListTransform<Item, New> {
        adding(transform)
    }

    /// Shows only the rows `isIncluded` accepts.
    ///
    /// The list's ends still come from the paginator's pages, never from the filtered count; a page that
    /// adds no row makes the list load the next one by itself (see ``Paginator/transformed(by:)``).
    ///
    /// - Parameter isIncluded: Called once for each row that arrives or changes, on the delivering thread.
    /// - Returns: The transform with this step added.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Output) -> Bool) -> ListTransform<Item, Output> {
        adding { isIncluded($0) ? $0 : nil }
    }

    /// Inserts the row `separator(before, after)` returns between each two neighbouring rows, and at the
    /// ends of the list.
    ///
    /// `before` is `nil` only above the first row of a list whose top was reached (a one-ended list, or
    /// a two-ended list whose previous pages ran out); `after` is `nil` only below the last row of a list
    /// whose bottom was reached. A separator between two pages is computed once both are loaded, and is
    /// removed with either of them; it is computed again only when one of its neighbours changes (an
    /// edit, a refresh), as an update of that row.
    ///
    /// ```swift
    /// .separators { before, after in
    ///     guard let after, before?.month != after.month else { return nil }
    ///     return .monthHeader(after.month)
    /// }
    /// ```
    ///
    /// - Parameter separator: The row between `before` and `after`, or `nil` for none.
    /// - Returns: The transform with this step added.
    @inlinable
    public func separators(
        _ separator: @escaping @Sendable (_ before: Output?, _ after: Output?) -> Output?
    ) -> ListTransform<Item, Output> {
        ListTransform(
            steps: steps + [TransformStep.separators(separator)], header: header, footer: footer)
    }

    /// Shows `header(edge)` above every row, when it is not `nil`.
    ///
    /// The header is computed again each time the top edge's state changes (see ``ListEdge``), and its
    /// row changes by an update, never by a reload of the list. Steps added later map and filter it too;
    /// separators leave it alone. A later `header` replaces this one.
    ///
    /// - Parameter header: The header row for the state of the list's top, or `nil` for none.
    /// - Returns: The transform with a header.
    @inlinable
    public func header(_ header: @escaping @Sendable (ListEdge) -> Output?) -> ListTransform<Item, Output> {
        ListTransform(steps: steps, header: header, footer: footer)
    }

    /// Shows `footer(edge)` below every row, when it is not `nil`.
    ///
    /// The footer is computed again each time the bottom edge's state changes (see ``ListEdge``): a
    /// spinner while the next page loads, a retry button when it failed. Its row changes by an update,
    /// never by a reload of the list. Steps added later map and filter it too; separators leave it
    /// alone. A later `footer` replaces this one.
    ///
    /// - Parameter footer: The footer row for the state of the list's bottom, or `nil` for none.
    /// - Returns: The transform with a footer.
    @inlinable
    public func footer(_ footer: @escaping @Sendable (ListEdge) -> Output?) -> ListTransform<Item, Output> {
        ListTransform(steps: steps, header: header, footer: footer)
    }

    /// This transform followed by the element step that shows `element` of each row; the header and the
    /// footer go through `element` too.
    @inlinable
    func adding<New: Sendable>(_ element: @escaping @Sendable (Output) -> New?) -> ListTransform<Item, New> {
        let header = header.map { header in { @Sendable edge in header(edge).flatMap(element) } }
        let footer = footer.map { footer in { @Sendable edge in footer(edge).flatMap(element) } }
        return ListTransform<Item, New>(
            steps: steps + [TransformStep.element(element)], header: header, footer: footer)
    }
}

/// The state of one edge of a transformed list, as its header or footer sees it.
///
/// The header sees the top edge: the refresh state while a refresh loads or failed, the previous-page
/// (prepend) state otherwise. The footer sees the bottom edge: the next-page (append) state.
public struct ListEdge: Sendable, Hashable {
    /// What the edge is doing.
    public enum Status: Sendable, Hashable {
        /// Nothing is loading there, and more pages may come.
        case idle
        /// A page is loading there.
        case loading
        /// The latest page there failed; `retry()` requests it again.
        case failed
        /// The list's end on that side was reached.
        case ended
    }

    /// What the edge is doing.
    public let status: Status
    /// Whether the paginator shows no item.
    public let isListEmpty: Bool

    /// Creates an edge state.
    ///
    /// - Parameters:
    ///   - status: What the edge is doing.
    ///   - isListEmpty: Whether the paginator shows no item.
    public init(status: Status, isListEmpty: Bool) {
        self.status = status
        self.isListEmpty = isListEmpty
    }
}
