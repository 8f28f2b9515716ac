/// Where a collection's order puts rows whose value is ``StoreValue/null``.
public enum StoreNulls: Hashable, Sendable {
    /// Null values come after every other value, in either direction (the default).
    case last
    /// Null values come before every other value, in either direction.
    case first
}

/// How a collection's order compares strings.
///
/// Both stores compare the same way: ``binary`` by UTF-8 bytes (so `"é"` and `"e\u{301}"` differ),
/// ``localized`` with the comparator of the schema's ``StoreSchema/localizedOrder``, which the SQLite
/// store registers with SQLite as a collation.
public enum StoreCollation: Hashable, Sendable {
    /// UTF-8 bytes, as SQLite's `BINARY` collation: `"B" < "Z" < "a"`.
    case binary
    /// The app's comparator, ``StoreLocalizedOrder``.
    case localized
}

/// One component of a collection's order: a value read from the row, a direction, a NULL rule and a
/// collation.
///
/// ```swift
/// let newestFirst: [StoreOrder<Post>] = [.descending(\.createdAt)]
/// ```
///
/// The store appends the row's identity to every order as the tie-breaker, in the direction of the
/// order's last component (ascending for an empty order), so the order is total: rows with equal values
/// are never skipped or served twice by keyset reads.
public struct StoreOrder<Row: StoreRow>: Sendable {
    /// Reads the component's value from a row.
    let value: @Sendable (Row) -> StoreValue
    /// How the component is compared.
    let rule: SortRule

    /// Orders by `keyPath`, smallest first.
    ///
    /// - Parameters:
    ///   - keyPath: The field to order by.
    ///   - nulls: Where rows whose field is `nil` go.
    ///   - collation: How strings compare.
    /// - Returns: The component.
    public static func ascending<Value: StoreSortable>(
        _ keyPath: KeyPath<Row, Value> & Sendable, nulls: StoreNulls = .last, collation: StoreCollation = .binary
    ) -> StoreOrder {
        StoreOrder(
            value: { $0[keyPath: keyPath].storeValue },
            rule: SortRule(descending: false, nulls: nulls, collation: collation))
    }

    /// Orders by `keyPath`, largest first.
    ///
    /// - Parameters:
    ///   - keyPath: The field to order by.
    ///   - nulls: Where rows whose field is `nil` go (after the others by default, as in ascending order).
    ///   - collation: How strings compare.
    /// - Returns: The component.
    public static func descending<Value: StoreSortable>(
        _ keyPath: KeyPath<Row, Value> & Sendable, nulls: StoreNulls = .last, collation: StoreCollation = .binary
    ) -> StoreOrder {
        StoreOrder(
            value: { $0[keyPath: keyPath].storeValue },
            rule: SortRule(descending: true, nulls: nulls, collation: collation))
    }

    /// Orders by a value computed from the row (a lowercased title, a score), smallest first unless
    /// `descending`.
    ///
    /// - Parameters:
    ///   - descending: Whether larger values come first.
    ///   - nulls: Where ``StoreValue/null`` values go.
    ///   - collation: How strings compare.
    ///   - value: Computes the value; it must depend on the row only.
    /// - Returns: The component.
    public static func computed(
        descending: Bool = false, nulls: StoreNulls = .last, collation: StoreCollation = .binary,
        _ value: @escaping @Sendable (Row) -> StoreValue
    ) -> StoreOrder {
        StoreOrder(value: value, rule: SortRule(descending: descending, nulls: nulls, collation: collation))
    }
}

/// The comparator of the ``StoreCollation/localized`` collation, injected by the app.
///
/// It must be a strict weak order that depends on its two strings only, and it must not call the store:
/// both stores call it while they order rows (the SQLite store through SQLite's collation callback, on
/// the thread of the statement). Strings it finds equal are ordered by the next component of the order,
/// then by identity. Changing it between launches of one SQLite file needs a new collection name, as any
/// change of a collection's order does.
public struct StoreLocalizedOrder: Sendable {
    /// Whether the first string comes before the second.
    public let areInIncreasingOrder: @Sendable (String, String) -> Bool

    /// A localized order from `areInIncreasingOrder`.
    public init(_ areInIncreasingOrder: @escaping @Sendable (String, String) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Swift's own string order (Unicode canonical equivalence, so `"é"` equals `"e\u{301}"`): the
    /// default when the app injects none.
    public static let standard = StoreLocalizedOrder { $0 < $1 }

    /// -1, 0 or 1 as `left` comes before, ties with or comes after `right`.
    package func compare(_ left: String, _ right: String) -> Int {
        if areInIncreasingOrder(left, right) { return -1 }
        if areInIncreasingOrder(right, left) { return 1 }
        return 0
    }
}
