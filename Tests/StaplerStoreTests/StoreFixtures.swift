import CSQLite
import Foundation
import Reactive
import Stapler
import StaplerSQLite
import Testing

/// A post of Store S: `post(id, createdAt, title, starred, likes)`.
struct Post: StoreRow, Equatable {
    var id: Int
    var createdAt: Int?
    var title: String
    var starred = false
    var likes = 0

    var storeID: StoreID { .integer(Int64(id)) }

    /// Post `id` of "posts 1…100": created at 10 × id, titled `t<id>`.
    static func numbered(_ id: Int) -> Post {
        Post(id: id, createdAt: 10 * id, title: "t\(id)")
    }
}

/// A row whose identity is a string, to check that 1 and "1" are different rows.
struct Tag: StoreRow, Equatable {
    var key: StoreID
    var label: String

    var storeID: StoreID { key }
}

/// A wall clock that reads what the test set.
final class ManualWallClock: WallClock, @unchecked Sendable {
    // Guarded by `lock`.
    private var time: Int64
    private let lock = NSLock()

    init(_ milliseconds: Int64 = 1_000) { time = milliseconds }

    func now() -> WallTime { lock.withLock { WallTime(millisecondsSince1970: time) } }

    func set(_ milliseconds: Int64) { lock.withLock { time = milliseconds } }
}

extension StoreSchema where Row == Post {
    /// Store S's collections: the feed newest first (NULLs last), the starred posts by title, a list a
    /// mediator fills, and the oldest first with NULLs first.
    static let storeS = StoreSchema(
        table: "post",
        collections: [
            StoreCollection("feed", orderedBy: [.descending(\.createdAt)]),
            StoreCollection("starred", where: { $0.starred }, orderedBy: [.ascending(\.title)]),
            StoreCollection("mediated", membership: .explicit, orderedBy: [.descending(\.createdAt)]),
            StoreCollection("oldestNullsFirst", orderedBy: [.ascending(\.createdAt, nulls: .first)]),
        ])

    /// A list a mediator fills and the starred posts, with no collection that holds every row.
    static let mediated = StoreSchema(
        table: "post",
        collections: [
            StoreCollection("mediated", membership: .explicit, orderedBy: [.descending(\.createdAt)]),
            StoreCollection("starred", where: { $0.starred }, orderedBy: [.ascending(\.title)]),
        ])

    /// Titles ordered by UTF-8 bytes and by the test's localized comparator.
    static let titles = StoreSchema(
        table: "post",
        collections: [
            StoreCollection("binary", orderedBy: [.ascending(\.title)]),
            StoreCollection("localized", orderedBy: [.ascending(\.title, collation: .localized)]),
            StoreCollection("localizedDescending", orderedBy: [.descending(\.title, collation: .localized)]),
        ],
        localizedOrder: StoreLocalizedOrder { folded($0) < folded($1) })
}

/// The test's "localized" key: lowercased, accents dropped (é and e + U+0301 become e).
func folded(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.lowercased().unicodeScalars {
        switch scalar.value {
        case 0x300...0x36F: continue
        case 0xE8...0xEB: scalars.append("e")
        default: scalars.append(scalar)
        }
    }
    return String(scalars)
}

/// The stores every conformance test runs on.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqliteWAL
    case sqliteDelete
    case sqliteInMemory

    var testDescription: String { rawValue }

    /// Whether a commit waits for a read transaction in progress.
    var commitWaitsForReaders: Bool { self == .sqliteDelete || self == .sqliteInMemory }
}

/// A store under test that keeps the temporary directory of its file until it is released.
final class StoreFixture<Row: StoreRow>: LocalStore, Sendable {
    let base: any LocalStore<Row>
    let directory: TemporaryDirectory?

    init(
        _ kind: StoreKind, schema: StoreSchema<Row>, clock: any WallClock = ManualWallClock(),
        onWait: (@Sendable () -> Void)? = nil
    ) throws {
        var options = SQLiteStore<Row>.Options()
        options.clock = clock
        options.onWait = onWait
        options.busyTimeout = .seconds(30)
        switch kind {
        case .memory:
            directory = nil
            base = MemoryStore(schema: schema, clock: clock)
        case .sqliteWAL, .sqliteDelete:
            let directory = try TemporaryDirectory()
            options.journal = kind == .sqliteWAL ? .wal : .delete
            self.directory = directory
            base = try SQLiteStore(path: directory.file("store.sqlite"), schema: schema, options: options)
        case .sqliteInMemory:
            directory = nil
            base = try SQLiteStore(path: ":memory:", schema: schema, options: options)
        }
    }

    var store: StoreFixture<Row> { self }
    var schema: StoreSchema<Row> { base.schema }
    var dataVersion: UInt64 { base.dataVersion }
    var changes: Signal<StoreChange, Never> { base.changes }

    func noticeExternalCommits() { base.noticeExternalCommits() }

    @discardableResult
    func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange {
        try base.write(body)
    }

    func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result {
        try base.read(body)
    }
}

/// A directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "stapler-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A raw SQLite connection, for what a test does behind the store's back (hold a lock, rewrite a row).
final class RawSQLite {
    let handle: OpaquePointer

    init(_ path: String) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(result == SQLITE_OK, "cannot open \(path)")
        self.handle = handle!
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql`; returns SQLite's result code.
    @discardableResult
    func execute(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }

    /// The first column of the first row of `sql`.
    func integer(_ sql: String) -> Int64? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
    }
}

extension LocalStore where Row == Post {
    /// Writes "posts 1…n" in one transaction.
    func seed(_ ids: ClosedRange<Int>) throws {
        try write { transaction in transaction.upsert(contentsOf: ids.map(Post.numbered)) }
    }

    /// Every id of `collection`, read by keyset `pageSize` rows at a time from the first.
    func walk(_ collection: String, pageSize: Int) throws -> [Int] {
        try walkRows(collection, pageSize: pageSize).map(\.id)
    }
}

extension LocalStore {
    /// Every row of `collection`, read by keyset `pageSize` rows at a time from the first.
    func walkRows(_ collection: String, pageSize: Int) throws -> [Row] {
        var rows: [Row] = []
        var position = StorePosition.first
        while true {
            let page = try page(of: collection, position, limit: pageSize)
            rows += page.rows
            guard let last = page.entries.last, page.entries.count == pageSize else { return rows }
            position = .after(last.cursor)
        }
    }
}

extension StorePage where Row == Post {
    var ids: [Int] { rows.map(\.id) }
}
