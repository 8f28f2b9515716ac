/// The remote keys of a collection's two edges: what a mediator asks the server for next.
public struct StoreRemoteKeys: Hashable, Sendable {
    /// The key of the page before the collection's first row, or `nil` at the start.
    public var before: String?
    /// The key of the page after the collection's last row, or `nil` at the end.
    public var after: String?

    /// Keys for the two edges.
    public init(before: String? = nil, after: String? = nil) {
        self.before = before
        self.after = after
    }

    /// No key at either edge.
    public static let none = StoreRemoteKeys()
}

/// One edge of a collection.
public enum StoreEdge: Hashable, Sendable {
    /// Before the first row.
    case before
    /// After the last row.
    case after
}

/// The writes of one transaction, recorded by ``LocalStore/write(_:)``'s body and applied together:
/// all of them commit, or none does.
///
/// The body only records: the store evaluates filters and orders, then applies everything in one commit
/// that sends one ``StoreChange``.
///
/// ```swift
/// try store.write { tx in
///     tx.upsert(post)
///     tx.delete(.integer(7))
/// }
/// ```
public struct StoreTransaction<Row: StoreRow>: Sendable {
    /// The recorded writes, in order.
    package private(set) var operations: [StoreOperation<Row>] = []

    /// A check the store makes under its write lock, before it writes anything of this transaction.
    ///
    /// If it answers `false`, nothing is written and the write throws `CancellationError`. A remote load's
    /// writes use it, so that a load cancelled before its commit commits nothing, with no lock of the list
    /// held while the store sends its change.
    package var commitCondition: (@Sendable () -> Bool)?

    /// An empty transaction.
    package init() {}

    /// Stores `row`, replacing the row with its identity: it enters, moves in or leaves every collection
    /// as its filters and orders now say.
    public mutating func upsert(_ row: Row) {
        operations.append(.upsert([row]))
    }

    /// Stores each of `rows`, in order.
    public mutating func upsert(contentsOf rows: some Sequence<Row>) {
        operations.append(.upsert(Array(rows)))
    }

    /// Deletes the row `id` and its membership in every collection; a missing row changes nothing.
    public mutating func delete(_ id: StoreID) {
        operations.append(.delete(id))
    }

    /// Makes `rows` the window of `collection`, as a mediator's refresh does.
    ///
    /// The rows are stored, the explicit members become exactly those of `rows` that match, the edge keys
    /// become `keys`, and the collection's last refresh becomes the store clock's now. A row that leaves
    /// the window is deleted unless another collection holds it.
    public mutating func replaceWindow(of collection: String, rows: [Row], keys: StoreRemoteKeys = .none) {
        operations.append(.replaceWindow(collection, rows, keys))
    }

    /// Adds `rows` at one edge of `collection` (a mediator's page) and records the edge's new remote key,
    /// in the same commit.
    public mutating func append(to collection: String, rows: [Row], key: String?, edge: StoreEdge) {
        operations.append(.append(collection, rows, key, edge))
    }

    /// Sets the remote keys of `collection`'s edges.
    public mutating func setRemoteKeys(_ keys: StoreRemoteKeys, of collection: String) {
        operations.append(.setRemoteKeys(collection, keys))
    }

    /// Sets the last refresh of `collection` to the store clock's now.
    public mutating func markRefreshed(_ collection: String) {
        operations.append(.markRefreshed(collection))
    }

    /// Empties `collection`: its membership, its keys and its last refresh; rows no other collection
    /// holds are deleted.
    public mutating func clear(_ collection: String) {
        operations.append(.clear(collection))
    }
}

/// One recorded write.
package enum StoreOperation<Row: StoreRow>: Sendable {
    case upsert([Row])
    case delete(StoreID)
    case replaceWindow(String, [Row], StoreRemoteKeys)
    case append(String, [Row], String?, StoreEdge)
    case setRemoteKeys(String, StoreRemoteKeys)
    case markRefreshed(String)
    case clear(String)
}

/// A row with its placement in each collection, computed before the store locks anything.
package struct PlannedRow<Row: StoreRow>: Sendable {
    package let row: Row
    package let id: StoreID
    /// The sort tuple in each collection of the schema, `nil` where the row does not match.
    package let placements: [StoreCursor?]
}

/// A recorded write with its collections resolved and its rows placed.
package enum PlannedOperation<Row: StoreRow>: Sendable {
    case upsert([PlannedRow<Row>])
    case delete(StoreID)
    case replaceWindow(Int, [PlannedRow<Row>], StoreRemoteKeys)
    case append(Int, [PlannedRow<Row>], String?, StoreEdge)
    case setRemoteKeys(Int, StoreRemoteKeys)
    case markRefreshed(Int)
    case clear(Int)
}

extension StoreSchema {
    /// Resolves the transaction's collections and places its rows: the user code of filters and orders
    /// runs here, outside every lock.
    package func plan(_ transaction: StoreTransaction<Row>) throws(StoreError) -> [PlannedOperation<Row>] {
        func place(_ rows: [Row]) -> [PlannedRow<Row>] {
            rows.map { PlannedRow(row: $0, id: $0.storeID, placements: placements(of: $0)) }
        }
        var planned: [PlannedOperation<Row>] = []
        for operation in transaction.operations {
            switch operation {
            case .upsert(let rows): planned.append(.upsert(place(rows)))
            case .delete(let id): planned.append(.delete(id))
            case .replaceWindow(let name, let rows, let keys):
                planned.append(.replaceWindow(try index(of: name), place(rows), keys))
            case .append(let name, let rows, let key, let edge):
                planned.append(.append(try index(of: name), place(rows), key, edge))
            case .setRemoteKeys(let name, let keys): planned.append(.setRemoteKeys(try index(of: name), keys))
            case .markRefreshed(let name): planned.append(.markRefreshed(try index(of: name)))
            case .clear(let name): planned.append(.clear(try index(of: name)))
            }
        }
        return planned
    }
}
