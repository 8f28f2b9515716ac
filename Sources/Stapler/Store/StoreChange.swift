/// What one commit changed: the store sends one per commit, in commit order.
///
/// A list reads the collections it shows again when they appear here. Versions only grow: each commit's
/// is one more than the previous commit's, except after commits by another connection to the same file,
/// which a SQLite store reports together as one change at the newest of their versions.
public struct StoreChange: Hashable, Sendable {
    /// The store's data version after the commit.
    public let version: UInt64
    /// The tables whose rows the commit wrote or deleted.
    public let tables: [String]
    /// The collections whose members, order, member rows, keys or last refresh changed, in schema order.
    public let collections: [String]
    /// The rows written or deleted, in ``StoreID`` order.
    public let ids: [StoreID]

    /// A change of `version`.
    public init(version: UInt64, tables: [String], collections: [String], ids: [StoreID]) {
        self.version = version
        self.tables = tables
        self.collections = collections
        self.ids = ids
    }
}

/// What a transaction touched so far, accumulated while it applies.
package struct StoreTouch: Sendable {
    package var ids: Set<StoreID> = []
    package var collections: Set<Int> = []

    package init() {}

    /// Whether the transaction changed anything (otherwise it commits nothing).
    package var isEmpty: Bool { ids.isEmpty && collections.isEmpty }

    /// The notification of this touch committed as `version`.
    package func change<Row>(version: UInt64, schema: StoreSchema<Row>) -> StoreChange {
        StoreChange(
            version: version, tables: ids.isEmpty ? [] : [schema.table],
            collections: collections.sorted().map { schema.collections[$0].name }, ids: ids.sorted())
    }
}
