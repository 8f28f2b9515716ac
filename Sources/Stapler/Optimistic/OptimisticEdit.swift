/// An edit shown at once while a mutation runs on the server: a layer over the rows the server sent,
/// until the mutation settles (``Paginator/optimistic(_:isolation:mutation:)``).
///
/// The edit names its row by identity, never by index, so it finds its row again in every new list the
/// paginator shows while the mutation runs: a page appended or prepended, a refresh's list, a reload.
///
/// ```swift
/// let outcome = await paginator.optimistic(.modify(id: post.id) { $0.likes += 1 }) {
///     try await api.like(post.id)
/// }
/// ```
public struct OptimisticEdit<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    /// Where an inserted row goes.
    public enum Position: Sendable, Hashable {
        /// Before the first row.
        case top
        /// After the last row.
        case bottom
        /// Before the row at this index of the items the caller was given (after the last row for
        /// `items.count`); the row before it is followed wherever later lists move it.
        case index(Int)
    }

    /// What an edit does to the rows the server sent.
    @usableFromInline
    enum Operation: Sendable {
        case modify(@Sendable (inout Item) -> Void)
        case replace(Item)
        case insert(Item, Position)
        case remove
    }

    /// What kind of edit it is.
    public let kind: OptimisticEditKind
    /// The identity of the row the edit changes (of the row it adds, for an insertion).
    public let id: Item.ID
    @usableFromInline let operation: Operation
    /// The rows an insertion's index is read against, when not the observers' latest (a model's).
    @usableFromInline var seen: PagedItems<Item>?

    @usableFromInline
    init(kind: OptimisticEditKind, id: Item.ID, operation: Operation) {
        self.kind = kind
        self.id = id
        self.operation = operation
    }

    /// This edit, its insertion index read against `items`.
    @usableFromInline
    func reading(_ items: PagedItems<Item>) -> Self {
        var edit = self
        edit.seen = items
        return edit
    }

    /// Changes the row whose `id` is `id` with `change`, wherever it is in each list shown.
    ///
    /// `change` runs with no lock held, on every list shown while the mutation runs (so over the
    /// server's newest version of the row): it must be pure. While no row has the identity, the edit shows
    /// nothing.
    ///
    /// - Parameters:
    ///   - id: The identity of the row.
    ///   - change: Mutates the row.
    /// - Returns: The edit.
    public static func modify(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) -> Self {
        Self(kind: .modify, id: id, operation: .modify(change))
    }

    /// Replaces the row whose `id` is `id` with `item`, in place.
    ///
    /// - Parameters:
    ///   - id: The identity of the row.
    ///   - item: The version to show (its identity may differ).
    /// - Returns: The edit.
    public static func replace(id: Item.ID, with item: Item) -> Self {
        Self(kind: .replace, id: id, operation: .replace(item))
    }

    /// Hides the row whose `id` is `id`.
    ///
    /// - Parameter id: The identity of the row.
    /// - Returns: The edit.
    public static func remove(id: Item.ID) -> Self {
        Self(kind: .remove, id: id, operation: .remove)
    }

    /// Adds `item` at `position`, usually with a temporary (client) identity that the server's echo
    /// replaces in place.
    ///
    /// While a row of the same identity is in the list, the insertion shows nothing more: the row is never
    /// shown twice.
    ///
    /// - Parameters:
    ///   - item: The row to add.
    ///   - position: Where it goes (an index below 0 traps when the edit starts, naming `index`).
    /// - Returns: The edit.
    public static func insert(_ item: Item, at position: Position) -> Self {
        Self(kind: .insert, id: item.id, operation: .insert(item, position))
    }
}

/// What kind of change an optimistic edit makes.
public enum OptimisticEditKind: Sendable, Hashable {
    /// ``OptimisticEdit/modify(id:_:)``.
    case modify
    /// ``OptimisticEdit/replace(id:with:)``.
    case replace
    /// ``OptimisticEdit/insert(_:at:)``.
    case insert
    /// ``OptimisticEdit/remove(id:)``.
    case remove
}
