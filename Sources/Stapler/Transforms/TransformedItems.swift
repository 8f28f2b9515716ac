/// An immutable snapshot of a transformed list: a random-access collection over shared page storage.
///
/// Like ``PagedItems``, snapshots share their storage: the rows of each source page are one page of the
/// snapshot, so appending a page to the list costs O(page) however many earlier snapshots observers
/// keep, and a snapshot never changes after it is made.
///
/// - Complexity: `count` is O(1); subscripting is O(log pages); iterating is O(1) per row, amortised.
public struct TransformedItems<Output: Sendable>: RandomAccessCollection, Sendable {
    /// The parts of the snapshot, in one immutable object: a snapshot is passed and kept by one reference.
    @usableFromInline let parts: TransformedParts<Output>

    /// The header row, if any.
    @inlinable var header: Output? { parts.header }
    /// The rows above the first source page (a separator at the top edge).
    @inlinable var leading: ContiguousArray<TransformedRow<Output>> { parts.leading }
    /// The rows of each source page, one page each.
    @inlinable var body: PagedItems<TransformedRow<Output>> { parts.body }
    /// The rows below the last source page (a separator at the bottom edge).
    @inlinable var trailing: ContiguousArray<TransformedRow<Output>> { parts.trailing }
    /// The footer row, if any.
    @inlinable var footer: Output? { parts.footer }
    /// Where the source pages start, to map a row to its source row.
    @inlinable var source: (any SourcePageStarts)? { parts.source }

    /// The number of rows.
    public var count: Int { parts.count }

    /// An empty snapshot.
    public init() {
        self.init(header: nil, leading: [], body: PagedItems(), trailing: [], footer: nil, source: nil)
    }

    @inlinable
    init(
        header: Output?, leading: ContiguousArray<TransformedRow<Output>>, body: PagedItems<TransformedRow<Output>>,
        trailing: ContiguousArray<TransformedRow<Output>>, footer: Output?, source: (any SourcePageStarts)?
    ) {
        parts = TransformedParts(
            header: header, leading: leading, body: body, trailing: trailing, footer: footer, source: source)
    }

    /// The number of rows between the header and the footer.
    @usableFromInline
    var contentCount: Int { leading.count + body.count + trailing.count }

    /// The position of the first row: always 0.
    public var startIndex: Int { 0 }

    /// The position after the last row: ``count``.
    public var endIndex: Int { count }

    /// The row at `position`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log pages).
    public subscript(position: Int) -> Output {
        precondition(position >= 0 && position < count, "TransformedItems index \(position) out of range 0..<\(count)")
        var index = position
        if let header {
            if index == 0 { return header }
            index -= 1
        }
        if index < leading.count { return leading[index].value }
        index -= leading.count
        if index < body.count { return body[index].value }
        index -= body.count
        if index < trailing.count { return trailing[index].value }
        guard let footer else {
            fatalError("TransformedItems: row \(position) counted a footer the list does not have")
        }
        return footer
    }

    /// The index in the paginator's items of the source row that row `position` comes from (for a
    /// separator, the row after it; for the header and the top rows, 0; for the footer, the last row).
    ///
    /// - Parameter position: A row index in `0..<count`.
    /// - Returns: The source row, or `nil` when the paginator shows no item.
    /// - Complexity: O(log pages).
    func sourceIndex(of position: Int) -> Int? {
        guard let source, source.itemCount > 0 else { return nil }
        let index = position - (header == nil ? 0 : 1) - leading.count
        guard index >= 0 else { return 0 }
        guard index < body.count else { return source.itemCount - 1 }
        let located = body.locate(item: index)
        return Swift.min(
            source.start(ofPage: located.page) + located.items[index - located.start].offset, source.itemCount - 1)
    }

    /// Iterates the rows in order, page by page.
    public func makeIterator() -> Iterator {
        Iterator(items: self)
    }

    /// Iterates the rows of a snapshot in order.
    public struct Iterator: IteratorProtocol {
        let items: TransformedItems
        /// 0 header, 1 leading rows, 2 page rows, 3 trailing rows, 4 footer, 5 done.
        var part = 0
        var index = 0
        var rows: PagedItems<TransformedRow<Output>>.Iterator

        init(items: TransformedItems) {
            self.items = items
            rows = items.body.makeIterator()
        }

        /// The next row, or `nil` after the last one.
        public mutating func next() -> Output? {
            while true {
                switch part {
                case 0:
                    part = 1
                    if let header = items.header { return header }
                case 1:
                    if index < items.leading.count {
                        defer { index += 1 }
                        return items.leading[index].value
                    }
                    (part, index) = (2, 0)
                case 2:
                    if let row = rows.next() { return row.value }
                    part = 3
                case 3:
                    if index < items.trailing.count {
                        defer { index += 1 }
                        return items.trailing[index].value
                    }
                    part = 4
                case 4:
                    part = 5
                    if let footer = items.footer { return footer }
                default:
                    return nil
                }
            }
        }
    }
}

extension TransformedItems: Equatable where Output: Equatable {
    /// Whether both snapshots hold equal rows in the same order.
    public static func == (lhs: TransformedItems, rhs: TransformedItems) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension TransformedItems: CustomStringConvertible {
    /// The rows, as an array would print them.
    public var description: String {
        Array(self).description
    }
}

/// The parts of a ``TransformedItems`` snapshot.
///
/// A class, so that copying a snapshot (into a publication, an update, an event, an observer's variable)
/// retains one object instead of copying each part through the generic value witnesses.
@usableFromInline
final class TransformedParts<Output: Sendable>: Sendable {
    @usableFromInline let header: Output?
    @usableFromInline let leading: ContiguousArray<TransformedRow<Output>>
    @usableFromInline let body: PagedItems<TransformedRow<Output>>
    @usableFromInline let trailing: ContiguousArray<TransformedRow<Output>>
    @usableFromInline let footer: Output?
    @usableFromInline let source: (any SourcePageStarts)?
    @usableFromInline let count: Int

    @inlinable
    init(
        header: Output?, leading: ContiguousArray<TransformedRow<Output>>, body: PagedItems<TransformedRow<Output>>,
        trailing: ContiguousArray<TransformedRow<Output>>, footer: Output?, source: (any SourcePageStarts)?
    ) {
        self.header = header
        self.leading = leading
        self.body = body
        self.trailing = trailing
        self.footer = footer
        self.source = source
        count = (header == nil ? 0 : 1) + leading.count + body.count + trailing.count + (footer == nil ? 0 : 1)
    }
}

/// A row of a transformed page and the position in its source page of the row it comes from.
@usableFromInline
struct TransformedRow<Output: Sendable>: Sendable {
    @usableFromInline let value: Output
    @usableFromInline let offset: Int

    @inlinable
    init(value: Output, offset: Int) {
        self.value = value
        self.offset = offset
    }
}

/// Where each page of a paginator's snapshot starts, whatever its item type.
@usableFromInline
protocol SourcePageStarts: Sendable {
    /// The number of items.
    var itemCount: Int { get }
    /// The index of the first item of page `page`.
    func start(ofPage page: Int) -> Int
}

extension PagedItems: SourcePageStarts {
    @usableFromInline var itemCount: Int { count }

    @usableFromInline func start(ofPage page: Int) -> Int {
        page < pageCount ? self.page(at: page).start : count
    }
}
