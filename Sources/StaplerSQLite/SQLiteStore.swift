import CSQLite
import Reactive
import Stapler

/// A ``Stapler/LocalStore`` in a SQLite file: rows encoded with any encoder (JSON by default), sort tuples
/// in indexed columns, WAL mode, typed errors for every fault of the file.
///
/// ```swift
/// let store = try SQLiteStore(path: cachesPath + "/feed.sqlite", schema: schema, options: .cache)
/// try store.write { tx in tx.upsert(contentsOf: posts) }
/// let page = try store.page(of: "feed", .first, limit: 20)
/// ```
///
/// It passes the conformance suite of the in-memory store: the same order, identities and notifications.
/// SQL compares only the sort-tuple columns, never a field inside an encoded row: the filters and orders
/// run in Swift when a row is written. One connection writes; reads go through a second connection, so in
/// WAL mode they never wait for a write and a write never waits for them. A path of `:memory:` keeps the
/// database in memory, on one connection: there a write waits for the reads in progress.
///
/// Every call returns or throws a ``Stapler/StoreError``; a failed write rolls back. A statement that
/// finds the file locked by another connection retries within ``Options/busyTimeout``.
public final class SQLiteStore<Row: StoreRow>: LocalStore, Sendable {
    /// The rows' table and the registered collections.
    public let schema: StoreSchema<Row>
    /// The file's path, or `:memory:`.
    public let path: String
    /// The options the store was opened with.
    public let options: Options
    /// Where a damaged file was moved when the store opened, with ``CorruptionPolicy/recreate``; `nil`
    /// when the file opened as it was.
    public let recovery: SQLiteRecovery?
    let coding: SQLiteRowCoding<Row>
    /// The file's indexes when it opened: a localized read names its collection's index when there is one.
    let indexes: Set<String>
    // Guarded by its own lock (`LockedState`): the connection that writes, and for `:memory:` also reads.
    private let writer: LockedState<SQLiteConnection>
    // Guarded by its own lock (`LockedState`): the connection that reads; `nil` for `:memory:`.
    private let reader: LockedState<SQLiteConnection>?
    // Guarded by its own lock (`LockedState`): the connection that notices other connections' commits;
    // `nil` for `:memory:`.
    private let watch: LockedState<SQLiteWatch>?
    // Guarded by its own lock (`LockedState`): the data version and the reads in progress. Reports of
    // commits are queued in the outbox under this lock, so they keep commit order.
    private let counters: LockedState<SQLiteVersions>
    private let outbox = CommitOutbox()
    private let counts = SQLiteCounts()

    /// Opens (or creates) the store at `path`.
    ///
    /// Opening reads the file's schema version first and changes nothing in a file it cannot use: a
    /// newer version throws ``Stapler/StoreError/schemaTooNew(found:supported:)``. An older one is
    /// migrated, one transaction per step; a failed step throws
    /// ``Stapler/StoreError/migrationFailed(from:to:)`` and leaves the file at the version before it.
    ///
    /// - Parameters:
    ///   - path: The file, or `:memory:`.
    ///   - schema: The table and collections (the same value as a ``Stapler/MemoryStore``'s orders alike).
    ///   - options: Journal, timeouts, fault policies, migrations and clock.
    ///   - coding: How rows are encoded.
    /// - Throws: A ``Stapler/StoreError``: `.notADatabase` or `.corrupt` (unless ``CorruptionPolicy/recreate``
    ///   moved the file aside), `.cannotOpen`, `.busy`, `.readOnly`, `.schemaTooNew`, `.migrationFailed`.
    public init(
        path: String, schema: StoreSchema<Row>, options: Options = Options(), coding: SQLiteRowCoding<Row> = .json
    ) throws(StoreError) {
        let isMemory = path == ":memory:"
        var recovery: SQLiteRecovery?
        let opened: SQLiteFile
        do {
            opened = try SQLiteFile.open(path: path, schema: schema, options: options, coding: coding)
        } catch let error where error == .notADatabase || error == .corrupt {
            guard options.onCorruption == .recreate, !isMemory, !options.readOnly else { throw error }
            recovery = SQLiteRecovery(movedTo: try SQLiteFile.moveAside(path))
            opened = try SQLiteFile.open(path: path, schema: schema, options: options, coding: coding)
        }
        self.schema = schema
        self.path = path
        self.options = options
        self.coding = coding
        self.recovery = recovery
        self.indexes = opened.indexes
        self.writer = LockedState(opened.writer)
        self.reader = opened.reader.map { LockedState($0) }
        self.watch = opened.watch.map { LockedState(SQLiteWatch(connection: $0)) }
        self.counters = LockedState(SQLiteVersions(version: opened.version))
    }

    /// The data version of the last commit this store made or noticed (persisted in the file): it only
    /// grows.
    ///
    /// The version is the file's commit counter, which every `SQLiteStore` on the file increments in each
    /// of its commits, so a commit by another connection (an app extension's store on the same file) has a
    /// version too. This store learns of it when a read sees the counter or
    /// ``noticeExternalCommits()`` looks; until then it is not counted here.
    public var dataVersion: UInt64 {
        counters.withLock { $0.version }
    }

    /// One value per commit, in commit order.
    public var changes: Signal<StoreChange, Never> { outbox.changes }

    /// Records a transaction with `body`, encodes its rows, then commits it in one SQLite transaction
    /// (`BEGIN IMMEDIATE`); see ``Stapler/LocalStore/write(_:)``.
    ///
    /// - Throws: What `body` throws, or a ``Stapler/StoreError`` (`.busy` after the busy timeout, `.full`,
    ///   `.readOnly`, `.io`, `.corrupt`, `.unencodable`); the file is then as it was.
    @discardableResult
    public func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange {
        var transaction = StoreTransaction<Row>()
        try body(&transaction)
        let encoded = try schema.plan(transaction).map { operation throws(StoreError) in
            EncodedOperation(operation: operation, bodies: try encode(operation))
        }
        let now = options.clock.now()
        if reader == nil, counters.withLock({ $0.reads > 0 }) { options.onWait?() }
        // Reports queued below are sent once the writer's lock is released, whatever happens.
        defer { outbox.drain() }
        let condition = transaction.commitCondition
        var refused = false
        let change: StoreChange? = try writer.withLock { connection throws(StoreError) in
            if let condition, !condition() {
                refused = true
                return nil
            }
            // Transaction statements run prepared, from the connection's cache, like every other.
            try connection.run("BEGIN IMMEDIATE")
            var inFlight = false
            do throws(StoreError) {
                var touch = StoreTouch()
                let writer = SQLiteWriter(connection: connection, schema: schema)
                for operation in encoded { try writer.apply(operation, now: now, touch: &touch) }
                guard !touch.isEmpty else {
                    connection.rollbackIfNeeded()
                    return nil
                }
                try connection.run("UPDATE stapler_meta SET value = value + 1 WHERE key = 'version'")
                // A counter that is missing or not positive after the increment was damaged outside the store:
                // the write fails as a corrupt file, and rolls back.
                guard let counter = try connection.integer(SQLiteFile.counterQuery), counter > 0 else {
                    throw .corrupt
                }
                let version = UInt64(counter)
                // A counter that moved past the known version before this transaction took the lock was
                // moved by another connection's commit: it is reported first.
                counters.withLock { versions in
                    report(versions.willCommit(version, after: version - 1))
                }
                inFlight = true
                try connection.run("COMMIT")
                let change = touch.change(version: version, schema: schema)
                counters.withLock { versions in
                    outbox.enqueue(change)
                    report(versions.didCommit(version))
                }
                return change
            } catch {
                connection.rollbackIfNeeded()
                if inFlight { counters.withLock { versions in report(versions.didCommit(nil)) } }
                throw error
            }
        }
        if refused { throw CancellationError() }
        guard let change else {
            return StoreChange(version: dataVersion, tables: [], collections: [], ids: [])
        }
        return change
    }

    /// Runs `body` inside one read transaction; see ``Stapler/LocalStore/read(_:)``.
    ///
    /// With ``UndecodablePolicy/dropCollection``, a collection whose rows did not decode during the read is
    /// cleared in one transaction after it, and the read still throws the
    /// ``Stapler/StoreError/undecodable(collection:id:underlying:)`` it met.
    public func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result {
        let context = SQLiteReadContext()
        counters.withLock { $0.reads += 1 }
        let outcome = Swift.Result { () throws -> Result in
            try (reader ?? writer).withLock { connection in
                try connection.run("BEGIN")
                defer { connection.rollbackIfNeeded() }
                let reader = SQLiteReader(
                    connection: connection, schema: schema, indexes: indexes, decodeRow: coding.makeDecode(),
                    context: context, counts: counts)
                let result = try body(reader)
                // Every read records the counter it saw, to notice other connections' commits before it.
                _ = try reader.version()
                return result
            }
        }
        counters.withLock { versions in
            versions.reads -= 1
            if let counter = context.counter { report(versions.saw(counter)) }
        }
        outbox.drain()
        if options.onUndecodable == .dropCollection, !context.undecodable.isEmpty, !options.readOnly {
            // A failed drop leaves the collection as it was: the next read that meets the row drops it again.
            // The read reports the row it met either way.
            _ = try? write { transaction in
                for name in context.undecodable { transaction.clear(name) }
            }
        }
        return try outcome.get()
    }

    /// Looks for commits by other connections to the file and reports them; see
    /// ``Stapler/LocalStore/noticeExternalCommits()``.
    ///
    /// It runs `PRAGMA data_version` on a connection kept for this (it answers a new value after another
    /// connection's commit, without reading a table) and, only when that moved, reads the commit counter.
    /// A commit that did not go through a `SQLiteStore` (plain SQL on the store's tables) does not move the
    /// counter and is not reported: write the file only through a store. Errors are ignored: the next read
    /// or check looks again.
    public func noticeExternalCommits() {
        guard let watch, let counter = watch.withLock({ watch in try? watch.counterIfChanged() }) ?? nil else {
            return
        }
        counters.withLock { versions in report(versions.saw(counter)) }
        outbox.drain()
    }

    /// Queues the report of another connection's commit at `version`, if there is one; call with the
    /// `counters` lock held.
    private func report(_ version: UInt64?) {
        guard let version else { return }
        outbox.enqueue(
            StoreChange(
                version: version, tables: [schema.table], collections: schema.collections.map(\.name), ids: []))
    }

    private func encode(_ operation: PlannedOperation<Row>) throws(StoreError) -> [[UInt8]] {
        let rows: [PlannedRow<Row>]
        switch operation {
        case .upsert(let planned), .replaceWindow(_, let planned, _), .append(_, let planned, _, _): rows = planned
        case .delete, .setRemoteKeys, .markRefreshed, .clear: rows = []
        }
        return try rows.map { row throws(StoreError) in
            do {
                return try coding.encode(row.row)
            } catch {
                throw .unencodable(id: row.id, underlying: "\(error)")
            }
        }
    }
}
