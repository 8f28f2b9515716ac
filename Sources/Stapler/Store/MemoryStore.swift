import Reactive

/// A ``LocalStore`` in memory: fast, for tests and for lists that need no persistence.
///
/// It passes the same conformance suite as the SQLite store: the same order (tuples are encoded and
/// compared the same way), the same identities, one notification per commit. A transaction is checked
/// and placed before the store locks anything, so applying it under the lock never stops halfway; a
/// reader holds a copy-on-write value of the state, so it keeps the version it started with and never
/// waits for a writer.
///
/// ```swift
/// let store = MemoryStore(schema: StoreSchema(table: "post", collections: [feed]))
/// try store.write { tx in tx.upsert(post) }
/// let first = try store.page(of: "feed", .first, limit: 20)
/// ```
public final class MemoryStore<Row: StoreRow>: LocalStore, Sendable {
    /// The rows' table and the registered collections.
    public let schema: StoreSchema<Row>
    // Guarded by its own lock (`LockedState`); also serialises commits with the outbox's queue.
    private let state: LockedState<MemoryStoreState<Row>>
    private let clock: any WallClock
    private let outbox = CommitOutbox()

    /// An empty store of `schema`'s collections.
    ///
    /// - Parameters:
    ///   - schema: The table and collections.
    ///   - clock: The wall clock of the collections' last refresh.
    public init(schema: StoreSchema<Row>, clock: any WallClock = SystemWallClock()) {
        self.schema = schema
        self.clock = clock
        self.state = LockedState(MemoryStoreState(schema: schema))
    }

    /// The data version of the last commit: it only grows.
    public var dataVersion: UInt64 {
        state.withLock { $0.version }
    }

    /// One value per commit, in commit order.
    public var changes: Signal<StoreChange, Never> { outbox.changes }

    /// Records a transaction with `body`, then commits it; see ``LocalStore/write(_:)``.
    ///
    /// - Complexity: O(m × c × log n) for m written rows and c collections of n rows, plus the moves of
    ///   sorted arrays.
    @discardableResult
    public func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange {
        var transaction = StoreTransaction<Row>()
        try body(&transaction)
        let planned = try schema.plan(transaction)
        let now = clock.now()
        let condition = transaction.commitCondition
        var refused = false
        let change: StoreChange? = state.withLock { state in
            if let condition, !condition() {
                refused = true
                return nil
            }
            // Planning resolved everything that can fail, so applying never stops halfway.
            var touch = StoreTouch()
            for operation in planned { state.apply(operation, now: now, touch: &touch) }
            guard !touch.isEmpty else { return nil }
            state.version += 1
            let change = touch.change(version: state.version, schema: schema)
            outbox.enqueue(change)
            return change
        }
        if refused { throw CancellationError() }
        guard let change else {
            return StoreChange(version: dataVersion, tables: [], collections: [], ids: [])
        }
        outbox.drain()
        return change
    }

    /// Does nothing: no other connection writes a store in memory.
    public func noticeExternalCommits() {}

    /// Runs `body` with a reader of the state at the time of the call; see ``LocalStore/read(_:)``.
    public func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result {
        let snapshot = state.withLock { $0 }
        return try body(MemoryStoreReader(state: snapshot))
    }
}

/// A reader of one ``MemoryStoreState`` value.
struct MemoryStoreReader<Row: StoreRow>: StoreReading {
    let state: MemoryStoreState<Row>

    func version() throws(StoreError) -> UInt64 { state.version }

    func page(of collection: String, _ position: StorePosition, limit: Int) throws(StoreError) -> StorePage<Row> {
        let index = try state.schema.index(of: collection)
        let members = state.collections[index].sorted
        let limit = max(0, limit)
        let range: Range<Int>
        switch position {
        case .first:
            range = 0..<min(limit, members.count)
        case .last:
            range = max(0, members.count - limit)..<members.count
        case .after(let cursor):
            var start = state.lowerBound(cursor, in: index)
            if start < members.count, members[start].cursor == cursor { start += 1 }
            range = start..<min(members.count, start + limit)
        case .before(let cursor):
            let end = state.lowerBound(cursor, in: index)
            range = max(0, end - limit)..<end
        }
        let entries = members[range].map { member in
            // Every member is a stored row: a delete removes the membership with the row.
            StoreEntry(row: state.rows[member.id]!, cursor: member.cursor)
        }
        return StorePage(entries: entries, version: state.version)
    }

    func count(of collection: String) throws(StoreError) -> Int {
        state.collections[try state.schema.index(of: collection)].sorted.count
    }

    func row(_ id: StoreID) throws(StoreError) -> Row? { state.rows[id] }

    func lastRefreshed(of collection: String) throws(StoreError) -> WallTime? {
        state.collections[try state.schema.index(of: collection)].refreshed
    }

    func remoteKeys(of collection: String) throws(StoreError) -> StoreRemoteKeys {
        state.collections[try state.schema.index(of: collection)].keys
    }
}
