/// How a collection's membership is decided.
public enum StoreMembership: Hashable, Sendable {
    /// Every stored row that matches the filter is a member: the store evaluates the filter on every
    /// upsert, so a row enters or leaves the collection in the commit that changes it.
    case query
    /// Members are the rows written into the collection explicitly
    /// (``StoreTransaction/replaceWindow(of:rows:keys:)``, ``StoreTransaction/append(to:rows:key:edge:)``),
    /// as a remote mediator fills a list. The filter still applies: a member that stops matching leaves.
    case explicit
}

/// A list a store keeps up to date: a filter and an order over the rows, registered when the store opens.
///
/// ```swift
/// let feed = StoreCollection<Post>("feed", orderedBy: [.descending(\.createdAt)])
/// let starred = StoreCollection<Post>("starred", where: { $0.starred }, orderedBy: [.ascending(\.title)])
/// ```
///
/// The store keeps, for each member, its sort tuple (the order's values, then the identity): reads walk
/// that tuple by keyset, so a write above a position never shifts what comes after it. A row whose sort
/// values change moves in the commit that changes them.
public struct StoreCollection<Row: StoreRow>: Sendable {
    /// The collection's name, unique in its schema.
    ///
    /// A SQLite file keeps the membership under it: give the collection a new name when its filter or
    /// order changes.
    public let name: String
    /// How membership is decided.
    public let membership: StoreMembership
    /// Whether a row belongs (for ``StoreMembership/explicit``: may stay).
    let filter: @Sendable (Row) -> Bool
    /// The order's components, before the identity.
    let order: [StoreOrder<Row>]
    /// The rules of `order`, for decoding and comparing tuples.
    let rules: [SortRule]

    /// A collection named `name`.
    ///
    /// - Parameters:
    ///   - name: Unique in the schema.
    ///   - membership: Whether the filter decides membership or writes do.
    ///   - filter: Whether a row belongs; it must depend on the row only (every row by default).
    ///   - order: The order; the identity is appended as the tie-breaker.
    public init(
        _ name: String, membership: StoreMembership = .query,
        where filter: @escaping @Sendable (Row) -> Bool = { _ in true },
        orderedBy order: [StoreOrder<Row>]
    ) {
        self.name = name
        self.membership = membership
        self.filter = filter
        self.order = order
        self.rules = order.map(\.rule)
    }

    /// Whether any component compares strings with the app's comparator.
    package var isLocalized: Bool {
        rules.contains { $0.collation == .localized }
    }

    /// The row's sort tuple in this collection, or `nil` if the row does not match the filter.
    package func placement(of row: Row) -> StoreCursor? {
        guard filter(row) else { return nil }
        return StoreCursor(
            bytes: SortKeyEncoding.tuple(values: order.map { $0.value(row) }, rules: rules, id: row.storeID))
    }

    /// -1, 0 or 1 as `left` sorts before, with or after `right` in this collection.
    ///
    /// Without a localized component this is a comparison of bytes; otherwise the localized strings are
    /// compared with `localized`, every other component by its bytes.
    package func compare(_ left: [UInt8], _ right: [UInt8], localized: StoreLocalizedOrder) -> Int {
        guard isLocalized else { return SortKeyEncoding.compareBytes(left[...], right[...]) }
        return left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in compare(left, right, localized: localized) }
        }
    }

    /// -1, 0 or 1 as the tuple in `left` sorts before, with or after the tuple in `right` in this
    /// collection, compared where the bytes lie: it allocates nothing but the strings its localized
    /// components hand to `localized` (none for strings of at most 15 bytes of UTF-8, which Swift keeps
    /// inline).
    package func compare(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, localized: StoreLocalizedOrder
    ) -> Int {
        SortKeyEncoding.compare(left, right, rules: rules, localized: localized)
    }
}

/// The rows a store keeps and the collections over them, fixed when the store opens.
///
/// Both stores take the same schema, so they order, filter and compare alike.
public struct StoreSchema<Row: StoreRow>: Sendable {
    /// The name of the rows' table, as change notifications report it.
    public let table: String
    /// The registered collections, in the order notifications list them.
    public let collections: [StoreCollection<Row>]
    /// The comparator of ``StoreCollation/localized`` components.
    public let localizedOrder: StoreLocalizedOrder

    /// A schema of `collections` over the rows of `table`.
    ///
    /// - Precondition: Collection names are unique (a programming error, caught at once).
    public init(
        table: String, collections: [StoreCollection<Row>], localizedOrder: StoreLocalizedOrder = .standard
    ) {
        precondition(
            Set(collections.map(\.name)).count == collections.count,
            "StoreSchema(table: \(table)): two collections have the same name")
        self.table = table
        self.collections = collections
        self.localizedOrder = localizedOrder
    }

    /// The index of the collection named `name`.
    package func index(of name: String) throws(StoreError) -> Int {
        guard let index = collections.firstIndex(where: { $0.name == name }) else {
            throw .unknownCollection(name)
        }
        return index
    }

    /// The row's sort tuple in each collection, `nil` where it does not match.
    package func placements(of row: Row) -> [StoreCursor?] {
        collections.map { $0.placement(of: row) }
    }
}
