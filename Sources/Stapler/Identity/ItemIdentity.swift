/// One item's identity as the paging machine keeps it: the value of the deduplication's own identity
/// type in an existential box, with its hash computed once, by that type, where the type is known.
///
/// The machine's tables of identities (the rows it has, a page's identities, the rows a catch-up
/// matches) hash this stored value, so a lookup never goes through `AnyHashable`'s canonical boxes;
/// two identities are compared as their own type, and only when their hashes are equal. Every identity
/// of one list has the same type (the deduplication's), so two of different types are never equal.
@usableFromInline
struct ItemIdentity: Hashable, Sendable {
    /// The identity's own hash, `value.hashValue`.
    @usableFromInline let hash: Int
    /// The identity, of the deduplication's type.
    @usableFromInline let value: any Hashable & Sendable

    /// The identity `value`, hashed as `ID`.
    @inlinable
    init<ID: Hashable & Sendable>(_ value: ID) {
        self.hash = value.hashValue
        self.value = value
    }

    /// Whether the two are the same identity: equal hashes, then `==` of their own type.
    @usableFromInline
    static func == (left: ItemIdentity, right: ItemIdentity) -> Bool {
        left.hash == right.hash && left.value.isEqual(to: right.value)
    }

    /// Feeds the stored hash to `hasher`.
    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

extension Hashable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Hashable) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
