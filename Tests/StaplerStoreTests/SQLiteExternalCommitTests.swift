import Foundation
import Reactive
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// Two SQLite stores on one file (an app and its extension): each reports the other's commits, once,
/// in order with its own (P47).
@Suite struct SQLiteExternalCommitTests {
    private static let everyCollection = ["feed", "starred", "mediated", "oldestNullsFirst"]

    private func external(_ version: UInt64) -> StoreChange {
        StoreChange(version: version, tables: ["post"], collections: Self.everyCollection, ids: [])
    }

    @Test("P47: another connection's commits are reported when a check or a read notices them, in commit order")
    func p47ExternalCommitsAreReportedInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        let app = try SQLiteStore(path: path, schema: .storeS)
        let extensionStore = try SQLiteStore(path: path, schema: .storeS)
        let changes = Locked<[StoreChange]>([])
        let observation = app.changes.observeValues { changes.append($0) }
        defer { observation.dispose() }
        try app.seed(1...3)
        try extensionStore.write { transaction in transaction.upsert(Post.numbered(4)) }
        try extensionStore.write { transaction in transaction.upsert(Post.numbered(5)) }
        #expect(app.dataVersion == 1)
        app.noticeExternalCommits()
        app.noticeExternalCommits()
        #expect(app.dataVersion == 3)
        try extensionStore.write { transaction in transaction.upsert(Post.numbered(6)) }
        // The app's next commit finds the counter moved: the other commit is reported before its own.
        let own = try app.write { transaction in transaction.upsert(Post.numbered(7)) }
        #expect(own.version == 5)
        _ = try app.row(1)
        try extensionStore.write { transaction in transaction.delete(1) }
        #expect(try app.count(of: "feed") == 6)
        #expect(app.dataVersion == 6)
        #expect(
            changes.value == [
                StoreChange(version: 1, tables: ["post"], collections: ["feed", "oldestNullsFirst"], ids: [1, 2, 3]),
                external(3), external(4),
                StoreChange(version: 5, tables: ["post"], collections: ["feed", "oldestNullsFirst"], ids: [7]),
                external(6),
            ])
    }

    @Test("P47: a store's own commits are never reported as another connection's")
    func p47OwnCommitsAreNotExternal() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("store.sqlite"), schema: .storeS)
        let changes = Locked<[StoreChange]>([])
        let observation = store.changes.observeValues { changes.append($0) }
        defer { observation.dispose() }
        for id in 1...5 {
            try store.write { transaction in transaction.upsert(Post.numbered(id)) }
            store.noticeExternalCommits()
            _ = try store.page(of: "feed", .first, limit: 2)
        }
        #expect(changes.value.map(\.version) == [1, 2, 3, 4, 5])
        #expect(changes.value.allSatisfy { !$0.ids.isEmpty })
    }

    @Test("P47: two stores on one file write and read on racing threads; each reports every version once, in order")
    func p47RacingConnectionsReportEachVersionOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        let app = try SQLiteStore(path: path, schema: .storeS)
        let extensionStore = try SQLiteStore(path: path, schema: .storeS)
        let versions = Locked<[UInt64]>([])
        let observation = app.changes.observeValues { versions.append($0.version) }
        defer { observation.dispose() }
        let rounds = 150
        raceFromBarrier(threads: 4) { thread in
            for round in 0..<rounds {
                let id = thread * 1_000 + round
                switch thread {
                case 0: _ = try? app.write { transaction in transaction.upsert(Post.numbered(id)) }
                case 1: _ = try? extensionStore.write { transaction in transaction.upsert(Post.numbered(id)) }
                case 2: _ = try? app.page(of: "feed", .first, limit: 5)
                default: app.noticeExternalCommits()
                }
            }
        }
        app.noticeExternalCommits()
        let seen = versions.value
        #expect(app.dataVersion == UInt64(2 * rounds))
        #expect(seen.last == UInt64(2 * rounds))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
    }
}
