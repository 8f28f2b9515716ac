/// How a deduplicating list tells its items apart, with the identity kept as its own `Hashable` type.
///
/// The box is generic over the item only: the identity type is captured by the closures, which
/// ``Deduplication``'s inlinable factories build where the key type is known, so each closure's
/// whole-list work (the keyed difference of a refresh, the anchor of a jump, a page's identities) runs
/// specialised for that type, hashing identities as their own type.
@usableFromInline
struct ItemIdentities<Item: Sendable>: Sendable {
    /// The identities of a page's items, in order, boxed for the machine's tables (see ``ItemIdentity``).
    @usableFromInline let erasedIdentities: @Sendable ([Item]) -> [ItemIdentity]
    /// One item's identity, boxed, for the edits that look a row up by identity.
    @usableFromInline let erased: @Sendable (Item) -> ItemIdentity
    /// The keyed difference from the first list to the second (``ItemsDifference/init(from:to:by:)``).
    @usableFromInline let difference: @Sendable (PagedItems<Item>, PagedItems<Item>) -> ItemsDifference
    /// Where a row of the first list went in the second (``ItemsAnchor/init(from:in:to:by:)``).
    @usableFromInline let anchor: @Sendable (Int, PagedItems<Item>, PagedItems<Item>) -> ItemsAnchor

    /// The identities `identify` gives, hashed as `ID`.
    ///
    /// - Parameter identify: Returns an item's identity; it must be pure.
    @inlinable
    init<ID: Hashable & Sendable>(_ identify: @escaping @Sendable (Item) -> ID) {
        erasedIdentities = { items in items.map { ItemIdentity(identify($0)) } }
        erased = { ItemIdentity(identify($0)) }
        difference = { old, new in ItemsDifference(from: old, to: new, by: identify) }
        anchor = { row, old, new in ItemsAnchor(from: row, in: old, to: new, by: identify) }
    }
}
