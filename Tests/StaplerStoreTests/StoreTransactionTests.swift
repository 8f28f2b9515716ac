import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// Transactions, notifications and versions, on every store.
@Suite struct StoreTransactionTests {
    struct Refused: Error {}

    @Test(
        "P72: a transaction whose body throws, or that names an unknown collection, writes nothing",
        arguments: StoreKind.allCases)
    func p72FailingTransactionLeavesNothing(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...10)
        let changes = Locked<[StoreChange]>([])
        let observation = store.changes.observeValues { changes.append($0) }
        defer { observation.dispose() }
        let version = store.dataVersion
        #expect(throws: Refused.self) {
            try store.write { transaction in
                transaction.upsert(Post.numbered(11))
                throw Refused()
            }
        }
        #expect(throws: StoreError.unknownCollection("nowhere")) {
            try store.write { transaction in
                transaction.upsert(Post.numbered(12))
                transaction.delete(1)
                transaction.markRefreshed("nowhere")
            }
        }
        #expect(store.dataVersion == version)
        #expect(changes.value.isEmpty)
        #expect(try store.row(11) == nil)
        #expect(try store.row(12) == nil)
        #expect(try store.row(1) == Post.numbered(1))
        #expect(try store.walk("feed", pageSize: 4) == Array((1...10).reversed()))
    }

    @Test(
        "P72: each commit sends one notification naming what it touched, and nothing else does",
        arguments: StoreKind.allCases)
    func p72OneNotificationPerCommit(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        let changes = Locked<[StoreChange]>([])
        let observation = store.changes.observeValues { changes.append($0) }
        defer { observation.dispose() }
        try store.seed(1...3)
        try store.write { transaction in
            transaction.upsert(Post(id: 2, createdAt: 20, title: "starred", starred: true))
            transaction.delete(3)
        }
        let empty = try store.write { transaction in transaction.delete(99) }
        try store.write { transaction in transaction.setRemoteKeys(StoreRemoteKeys(after: "k2"), of: "mediated") }
        #expect(empty == StoreChange(version: 2, tables: [], collections: [], ids: []))
        #expect(
            changes.value == [
                StoreChange(version: 1, tables: ["post"], collections: ["feed", "oldestNullsFirst"], ids: [1, 2, 3]),
                StoreChange(
                    version: 2, tables: ["post"], collections: ["feed", "starred", "oldestNullsFirst"], ids: [2, 3]),
                StoreChange(version: 3, tables: [], collections: ["mediated"], ids: []),
            ])
        #expect(store.dataVersion == 3)
    }

    @Test(
        "P54: a write enters, moves in and leaves every query collection in the commit that makes it",
        arguments: StoreKind.allCases)
    func p54OneWriteUpdatesEveryCollection(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        try store.write { transaction in
            for id in [10, 20, 30, 40, 50] {
                transaction.upsert(Post(id: id, createdAt: 10 * id, title: "t\(id)", starred: true))
            }
        }
        #expect(try store.page(of: "starred", .first, limit: 10).ids == [10, 20, 30, 40, 50])
        try store.write { transaction in
            transaction.upsert(Post(id: 95, createdAt: 950, title: "A first", starred: true))
        }
        let starred = try store.page(of: "starred", .first, limit: 10)
        #expect(starred.ids == [95, 10, 20, 30, 40, 50])
        #expect(try store.page(of: "feed", .first, limit: 10).rows[5].title == "A first")
        try store.write { transaction in transaction.upsert(Post(id: 95, createdAt: 950, title: "A first")) }
        #expect(try store.count(of: "starred") == 5)
        #expect(try store.row(95)?.title == "A first")
    }

    @Test(
        "P54: a mediator's window, appended pages and remote keys commit together; rows other lists hold stay",
        arguments: StoreKind.allCases)
    func p54ReplacingAWindowKeepsRowsOtherCollectionsHold(kind: StoreKind) throws {
        let clock = ManualWallClock(5_000)
        let store = try StoreFixture(kind, schema: .mediated, clock: clock).store
        let starredPost = Post(id: 95, createdAt: 950, title: "t95", starred: true)
        try store.write { transaction in
            transaction.replaceWindow(
                of: "mediated", rows: [Post.numbered(100), starredPost, Post.numbered(90)],
                keys: StoreRemoteKeys(before: nil, after: "after-90"))
        }
        #expect(try store.page(of: "mediated", .first, limit: 10).ids == [100, 95, 90])
        #expect(try store.remoteKeys(of: "mediated") == StoreRemoteKeys(before: nil, after: "after-90"))
        #expect(try store.lastRefreshed(of: "mediated") == WallTime(millisecondsSince1970: 5_000))
        try store.write { transaction in
            transaction.append(
                to: "mediated", rows: [Post.numbered(80), Post.numbered(70)], key: "after-70", edge: .after)
        }
        #expect(try store.page(of: "mediated", .first, limit: 10).ids == [100, 95, 90, 80, 70])
        #expect(try store.remoteKeys(of: "mediated").after == "after-70")
        // A row upserted elsewhere does not join an explicit collection; a member's new value moves it.
        try store.write { transaction in
            transaction.upsert(Post.numbered(85))
            transaction.upsert(Post(id: 70, createdAt: 2000, title: "t70"))
        }
        #expect(try store.page(of: "mediated", .first, limit: 10).ids == [70, 100, 95, 90, 80])
        clock.set(9_000)
        try store.write { transaction in
            transaction.replaceWindow(of: "mediated", rows: [Post.numbered(120), Post.numbered(110)])
        }
        #expect(try store.page(of: "mediated", .first, limit: 10).ids == [120, 110])
        #expect(try store.lastRefreshed(of: "mediated") == WallTime(millisecondsSince1970: 9_000))
        #expect(try store.remoteKeys(of: "mediated") == .none)
        // 95 is starred and 85 was never in the window: they stay; 100, 90, 80 and 70 were only there.
        #expect(try store.row(95) == starredPost)
        #expect(try store.page(of: "starred", .first, limit: 10).ids == [95])
        #expect(try store.row(85) != nil)
        for id in [100, 90, 80, 70] { #expect(try store.row(.integer(Int64(id))) == nil) }
        try store.write { transaction in transaction.clear("mediated") }
        #expect(try store.count(of: "mediated") == 0)
        #expect(try store.lastRefreshed(of: "mediated") == nil)
        #expect(try store.row(120) == nil)
        #expect(try store.row(95) == starredPost)
        #expect(try store.row(85) != nil)
    }

    @Test(
        "P72: four threads racing 50 commits each see versions that only grow, one notification each",
        arguments: StoreKind.allCases)
    func p72VersionOnlyGrowsUnderRacingWriters(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        let versions = Locked<[UInt64]>([])
        let observation = store.changes.observeValues { versions.append($0.version) }
        defer { observation.dispose() }
        let failures = Locked<[String]>([])
        let rounds = stressRounds(50)
        raceFromBarrier(threads: 4) { thread in
            for round in 0..<rounds {
                do {
                    try store.write { transaction in
                        transaction.upsert(Post(id: thread * 1000 + round, createdAt: round, title: "r"))
                    }
                    _ = try store.page(of: "feed", .first, limit: 5)
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.value.isEmpty)
        #expect(versions.value == Array(1...UInt64(4 * rounds)))
        #expect(store.dataVersion == UInt64(4 * rounds))
        #expect(try store.count(of: "feed") == 4 * rounds)
    }

    @Test(
        "P72: a reader sees one version until its read ends, while another thread commits",
        arguments: StoreKind.allCases)
    func p72ReaderSeesOneVersionWhileAnotherThreadCommits(kind: StoreKind) throws {
        let progress = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let waits = Locked(0)
        let fixture = try StoreFixture(kind, schema: .storeS) {
            waits.increment(by: 1)
            progress.signal()
        }
        let store = fixture.store
        try store.seed(1...10)
        let writeError = Locked<String?>(nil)
        let (before, during) = try store.read { reader in
            let before = try reader.page(of: "feed", .first, limit: 20)
            Thread.detachNewThread {
                do {
                    try store.write { transaction in transaction.upsert(Post.numbered(11)) }
                } catch {
                    writeError.withLock { $0 = "\(error)" }
                }
                progress.signal()
                finished.signal()
            }
            // The writer has committed (WAL, memory) or is waiting for this reader (DELETE, :memory:).
            progress.wait()
            return (before, try reader.page(of: "feed", .first, limit: 20))
        }
        finished.wait()
        #expect(writeError.value == nil)
        #expect(before.ids == Array((1...10).reversed()))
        #expect(during.ids == before.ids)
        #expect(during.version == before.version)
        let after = try store.page(of: "feed", .first, limit: 20)
        #expect(after.ids == Array((1...11).reversed()))
        #expect(after.version == before.version + 1)
        #expect((waits.value > 0) == kind.commitWaitsForReaders)
    }
}
