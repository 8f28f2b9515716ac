/// How a paginator recognises an item it already has, to drop it from later pages.
///
/// Offset paging repeats items when the server inserts rows ahead of the current offset; with a
/// deduplication, a repeated item is dropped (within a page too), while the next key still counts what
/// the server sent, and a page of only repeats does not end the list. A refresh starts a fresh set.
///
/// ```swift
/// Paginator(source: source, options: PagingOptions(pageSize: 20, deduplication: .by(\.id)))
/// ```
public struct Deduplication<Item: Sendable>: Sendable {
    /// The items' identities, typed: see ``ItemIdentities``.
    @usableFromInline let identities: ItemIdentities<Item>

    @inlinable
    init<ID: Hashable & Sendable>(identify: @escaping @Sendable (Item) -> ID) {
        identities = ItemIdentities(identify)
    }

    /// Recognises items by the value at `keyPath`.
    ///
    /// - Parameter keyPath: A unique key of an item.
    /// - Returns: The deduplication.
    @inlinable
    public static func by<ID: Hashable & Sendable>(_ keyPath: KeyPath<Item, ID> & Sendable) -> Deduplication {
        Deduplication { $0[keyPath: keyPath] }
    }

    /// Recognises items by the value `identify` returns.
    ///
    /// - Parameter identify: Returns a unique key of an item; it must be pure.
    /// - Returns: The deduplication.
    @inlinable
    public static func by<ID: Hashable & Sendable>(_ identify: @escaping @Sendable (Item) -> ID) -> Deduplication {
        Deduplication(identify: identify)
    }
}

extension Deduplication where Item: Identifiable, Item.ID: Sendable {
    /// Recognises items by their `id`.
    @inlinable
    public static var byID: Deduplication {
        Deduplication { $0.id }
    }
}
