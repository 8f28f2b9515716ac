import CSQLite
import Foundation
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// Real SQLite files that are locked, read-only, full, damaged or from another version (P53), and rows
/// that no longer decode (P55): each is a typed error or a documented fallback, never a trap, and never
/// loses what the file held.
@Suite struct SQLiteBadInputTests {
    typealias Options = SQLiteStore<Post>.Options

    func open(_ path: String, _ configure: (inout Options) -> Void = { _ in }) throws(StoreError) -> SQLiteStore<Post> {
        var options = Options()
        options.clock = ManualWallClock()
        configure(&options)
        return try SQLiteStore(path: path, schema: .storeS, options: options)
    }

    /// Creates a file of Store S with posts `ids` and closes it.
    func makeFile(_ directory: TemporaryDirectory, _ ids: ClosedRange<Int> = 1...100) throws -> String {
        let path = directory.file("feed.sqlite")
        try open(path).seed(ids)
        return path
    }

    @Test("P53: a write while another connection holds the lock throws busy after the timeout; nothing changes")
    func p53LockedFileThrowsBusyThenWrites() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...10)
        let store = try open(path) { $0.busyTimeout = .milliseconds(50) }
        let other = RawSQLite(path)
        #expect(other.execute("BEGIN IMMEDIATE") == SQLITE_OK)
        #expect(throws: StoreError.busy) {
            try store.write { transaction in transaction.upsert(Post.numbered(11)) }
        }
        #expect(try store.walk("feed", pageSize: 4) == Array((1...10).reversed()))
        #expect(store.dataVersion == 1)
        #expect(other.execute("COMMIT") == SQLITE_OK)
        try store.write { transaction in transaction.upsert(Post.numbered(11)) }
        #expect(try store.count(of: "feed") == 11)
        #expect(store.dataVersion == 2)
    }

    @Test("P53: a store opened read-only reads the cached rows and every write throws readOnly")
    func p53ReadOnlyFileReadsAndRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("feed.sqlite")
        let writer = try open(path)
        try writer.seed(1...10)
        let reader = try open(path) { $0.readOnly = true }
        #expect(try reader.walk("feed", pageSize: 3) == Array((1...10).reversed()))
        #expect(throws: StoreError.readOnly) {
            try reader.write { transaction in transaction.upsert(Post.numbered(11)) }
        }
        #expect(try writer.count(of: "feed") == 10)
        #expect {
            try open(directory.file("absent.sqlite")) { $0.readOnly = true }
        } throws: { error in
            guard case .cannotOpen = error as? StoreError else { return false }
            return true
        }
    }

    @Test("P53: a write past the page limit throws full, not a rollback error, and the rows stay")
    func p53FullFileThrowsFullAndKeepsRows() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...20)
        let pages = try #require(RawSQLite(path).integer("PRAGMA page_count"))
        let store = try open(path) { $0.maximumPageCount = Int(pages) }
        let long = String(repeating: "x", count: 4000)
        #expect(throws: StoreError.full) {
            try store.write { transaction in
                transaction.upsert(contentsOf: (21...60).map { Post(id: $0, createdAt: $0, title: long) })
            }
        }
        #expect(try store.walk("feed", pageSize: 7) == Array((1...20).reversed()))
        #expect(store.dataVersion == 1)
        try store.write { transaction in transaction.delete(20) }
        #expect(try store.count(of: "feed") == 19)
    }

    @Test("P53: a file whose header is overwritten is moved aside byte for byte with recreate, and fails with fail")
    func p53CorruptHeaderIsMovedAsideOrFails() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 0x41, count: 16))
        try handle.close()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase) { try open(path) }
        let store = try open(path) { $0.onCorruption = .recreate }
        #expect(store.recovery?.movedTo == path + ".corrupt-1")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-1")) == damaged)
        #expect(try store.count(of: "feed") == 0)
        try store.seed(1...3)
        #expect(try store.walk("feed", pageSize: 2) == [3, 2, 1])
    }

    @Test("P53: a damaged page mid-file fails the reads that meet it with corrupt; other reads and the process go on")
    func p53DamagedPageFailsTheReadThatMeetsIt() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...400)
        let raw = RawSQLite(path)
        let pageSize = try #require(raw.integer("PRAGMA page_size"))
        // A leaf of the rows' b-tree halfway through the ids.
        let leaves = "SELECT pageno FROM dbstat WHERE name = 'stapler_rows' AND pagetype = 'leaf' ORDER BY path"
        let count = try #require(raw.integer("SELECT COUNT(*) FROM (\(leaves))"))
        try #require(count >= 3)
        let page = try #require(raw.integer("\(leaves) LIMIT 1 OFFSET \(count / 2)"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(pageSize * (page - 1)))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(pageSize)))
        try handle.close()
        let store = try open(path)
        #expect(try store.page(of: "feed", .first, limit: 10).ids == Array((391...400).reversed()))
        #expect(throws: StoreError.corrupt) { try store.walk("feed", pageSize: 50) }
        #expect(try store.count(of: "starred") == 0)
    }

    @Test("P53: a file of a newer schema version throws schemaTooNew and stays byte for byte as it was")
    func p53NewerSchemaIsLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...10)
        RawSQLite(path).execute("PRAGMA user_version = 999")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let migrations = [
            SQLiteMigration(version: 2, statements: []), SQLiteMigration(version: 3, statements: []),
        ]
        #expect(throws: StoreError.schemaTooNew(found: 999, supported: 3)) {
            try open(path) { $0.migrations = migrations }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("P53: a migration that fails at its second statement throws migrationFailed and keeps version 2 and the rows")
    func p53FailedMigrationKeepsVersionAndRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("feed.sqlite")
        let second = SQLiteMigration(version: 2, statements: ["CREATE TABLE app_notes(note TEXT)"])
        try open(path) { $0.migrations = [second] }.seed(1...10)
        let third = SQLiteMigration(
            version: 3, statements: ["INSERT INTO app_notes VALUES('three')", "INSERT INTO nowhere VALUES(1)"])
        #expect(throws: StoreError.migrationFailed(from: 2, to: 3)) {
            try open(path) { $0.migrations = [second, third] }
        }
        let raw = RawSQLite(path)
        #expect(raw.integer("PRAGMA user_version") == 2)
        #expect(raw.integer("SELECT COUNT(*) FROM app_notes") == 0)
        let store = try open(path) { $0.migrations = [second] }
        #expect(try store.walk("feed", pageSize: 4) == Array((1...10).reversed()))
    }

    @Test("P53: 40 seeded byte mutations of a valid file each open and read, or throw a StoreError; none traps")
    func p53SeededByteMutationsNeverTrap() throws {
        let directory = try TemporaryDirectory()
        let valid = try Data(contentsOf: URL(fileURLWithPath: try makeFile(directory, 1...60)))
        var generator = SeededBytes(seed: 53)
        var outcomes: [String: Int] = [:]
        for round in 0..<40 {
            var bytes = [UInt8](valid)
            for _ in 0..<(1 + round % 8) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let path = directory.file("mutant-\(round).sqlite")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let store = try open(path)
                _ = try store.walk("feed", pageSize: 25)
                outcomes["read", default: 0] += 1
            } catch let error as StoreError {
                outcomes["\(error)", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 40)
    }

    @Test("P55: a row that no longer decodes fails the read naming it; with fail the collection stays")
    func p55UndecodableRowFailsTheRead() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...40)
        try rewriteRow(20, in: path)
        let store = try open(path)
        let shown = try store.page(of: "feed", .first, limit: 20)
        #expect(shown.ids == Array((21...40).reversed()))
        #expect {
            try store.page(of: "feed", .after(shown.entries.last!.cursor), limit: 10)
        } throws: { error in
            guard case .undecodable(collection: "feed", id: 20, _) = error as? StoreError else { return false }
            return true
        }
        #expect(throws: StoreError.self) { try store.row(20) }
        #expect(try store.count(of: "feed") == 40)
        #expect(try store.row(19)?.title == "t19")
    }

    @Test(
        "P55: with dropCollection the read that meets the row clears its collection; rows another collection holds stay"
    )
    func p55DropCollectionClearsTheCollectionOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("feed.sqlite")
        let seeded = try open(path)
        try seeded.write { transaction in
            transaction.replaceWindow(of: "mediated", rows: (1...40).map(Post.numbered))
            for id in 41...45 { transaction.upsert(Post(id: id, createdAt: 10 * id, title: "s\(id)", starred: true)) }
        }
        try rewriteRow(20, in: path)
        let store = try open(path) { $0 = .cache }
        let changes = Locked<[StoreChange]>([])
        let observation = store.changes.observeValues { changes.append($0) }
        defer { observation.dispose() }
        #expect(throws: StoreError.self) { try store.walk("mediated", pageSize: 10) }
        #expect(try store.count(of: "mediated") == 0)
        #expect(try store.page(of: "starred", .first, limit: 10).ids == [41, 42, 43, 44, 45])
        #expect(changes.value.map(\.collections) == [["mediated"]])
        #expect(try store.count(of: "feed") == 45)
        try store.write { transaction in transaction.replaceWindow(of: "mediated", rows: [Post.numbered(20)]) }
        #expect(try store.page(of: "mediated", .first, limit: 10).ids == [20])
    }

    @Test("P55: a row type that only gained an optional field decodes every old row")
    func p55AddedOptionalFieldDecodesOldRows() throws {
        struct PostWithSubtitle: StoreRow {
            var id: Int
            var createdAt: Int?
            var title: String
            var subtitle: String?
            var storeID: StoreID { .integer(Int64(id)) }
        }
        let directory = try TemporaryDirectory()
        let path = try makeFile(directory, 1...10)
        let schema = StoreSchema<PostWithSubtitle>(
            table: "post", collections: [StoreCollection("feed", orderedBy: [.descending(\.createdAt)])])
        let store = try SQLiteStore(path: path, schema: schema)
        let page = try store.page(of: "feed", .first, limit: 20)
        #expect(page.rows.map(\.id) == Array((1...10).reversed()))
        #expect(page.rows.allSatisfy { $0.subtitle == nil })
    }

    /// Rewrites row `id`'s JSON by hand so that its title is a number.
    func rewriteRow(_ id: Int, in path: String) throws {
        let raw = RawSQLite(path)
        let key = "10" + String(format: "%016llx", UInt64(id) ^ (1 << 63))
        let body = "{\"id\":\(id),\"title\":5}"
        #expect(raw.execute("UPDATE stapler_rows SET body = CAST('\(body)' AS BLOB) WHERE id = x'\(key)'") == SQLITE_OK)
        #expect(sqlite3_changes(raw.handle) == 1)
    }
}

/// SplitMix64: the same bytes on every run for one seed.
struct SeededBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
