import Foundation
import Reactive
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// A mediator's rows, keys, membership and refresh time commit together or not at all, and no reader
/// on any connection sees a list in between (P52).
@Suite struct RemoteTransactionTests {
    /// A SQLite store of the mediated list alone, holding posts 200…161 with their edge keys, and a list
    /// over it that opens from the store.
    private struct Setup {
        let fixture: StoreFixture<Post>
        let mediator = ManualMediator(.skipInitialRefresh)
        let list: PostList
        let raw: RawSQLite

        init() throws {
            fixture = try StoreFixture(.sqliteWAL, schema: .mediated)
            try fixture.write { tx in
                tx.replaceWindow(
                    of: "mediated", rows: posts(200, through: 161).map(Post.numbered),
                    keys: StoreRemoteKeys(before: "end", after: "next:p3"))
            }
            list = PostList(
                store: fixture, collection: "mediated", pageSize: 20, remote: mediator, scheduler: TestScheduler())
            raw = RawSQLite(fixture.directory!.file("store.sqlite"))
        }

        var memberCount: Int64? { raw.integer("SELECT count(*) FROM stapler_members WHERE collection = 'mediated'") }
        var rowCount: Int64? { raw.integer("SELECT count(*) FROM stapler_rows") }
    }

    @Test("P52: a refresh that faults after its delete leaves the 40 rows and their keys, and fails the refresh")
    func p52FaultMidTransactionRollsBack() throws {
        let setup = try Setup()
        #expect(setup.mediator.calls == ["initialize"])
        #expect(setup.list.ids == posts(200, through: 181))
        setup.list.refresh()
        let refresh = setup.mediator.last
        #expect(refresh.direction == .refresh)
        setup.raw.execute(
            """
            CREATE TRIGGER fault BEFORE UPDATE ON stapler_collections BEGIN SELECT RAISE(ABORT, 'fault'); END;
            CREATE TRIGGER faultInsert BEFORE INSERT ON stapler_collections BEGIN SELECT RAISE(ABORT, 'fault'); END;
            """)
        var failure: (any Error)?
        do {
            try refresh.refresh(posts(220, through: 201))
        } catch {
            failure = error
            refresh.fail(error)
        }
        let error = try #require(failure as? StoreError)
        #expect(setup.memberCount == 40)
        #expect(setup.rowCount == 40)
        #expect(try setup.fixture.remoteKeys(of: "mediated") == StoreRemoteKeys(before: "end", after: "next:p3"))
        #expect(setup.list.ids == posts(200, through: 181))
        #expect(setup.list.loadStates.value.refresh == .failed(.source(error)))
    }

    @Test("P52: without a fault the refresh commits 20 rows and their keys; another connection never counts 0")
    func p52RefreshIsAtomicForOtherConnections() throws {
        let setup = try Setup()
        setup.list.refresh()
        let refresh = setup.mediator.last
        let path = setup.fixture.directory!.file("store.sqlite")
        let stop = LockedFlag()
        let counts = LockedCounts()
        let join = onAnotherThread {
            let reader = RawSQLite(path)
            repeat {
                if let count = reader.integer("SELECT count(*) FROM stapler_members WHERE collection = 'mediated'") {
                    counts.insert(count)
                }
            } while !stop.isSet || counts.values.count < 2
        }
        while counts.values.isEmpty { Thread.sleep(forTimeInterval: 0.001) }
        try refresh.refresh(posts(220, through: 201), after: .next("q2"))
        stop.set()
        join()
        #expect(counts.values == [40, 20])
        #expect(setup.memberCount == 20)
        #expect(setup.rowCount == 20)
        #expect(try setup.fixture.remoteKeys(of: "mediated") == StoreRemoteKeys(before: "end", after: "next:q2"))
        #expect(setup.list.ids == posts(220, through: 201))
    }
}

/// A flag set once, read from any thread.
final class LockedFlag: @unchecked Sendable {
    // Guarded by `lock`.
    private var value = false
    private let lock = NSLock()

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// The distinct counts a reader saw.
final class LockedCounts: @unchecked Sendable {
    // Guarded by `lock`.
    private var seen: Set<Int64> = []
    private let lock = NSLock()

    var values: Set<Int64> { lock.withLock { seen } }
    func insert(_ count: Int64) { _ = lock.withLock { seen.insert(count) } }
}

/// A store that fails its next reads with `.busy` once armed.
final class BusyReadStore: LocalStore, @unchecked Sendable {
    let base: any LocalStore<Post>
    // Guarded by `lock`.
    private var failing = 0
    private let lock = NSLock()

    init(_ base: any LocalStore<Post>) { self.base = base }

    var schema: StoreSchema<Post> { base.schema }
    var dataVersion: UInt64 { base.dataVersion }
    var changes: Signal<StoreChange, Never> { base.changes }

    /// Fails the next `count` reads.
    func failReads(_ count: Int) { lock.withLock { failing = count } }

    @discardableResult
    func write(_ body: (inout StoreTransaction<Post>) throws -> Void) throws -> StoreChange {
        try base.write(body)
    }

    func noticeExternalCommits() { base.noticeExternalCommits() }

    func read<Result>(_ body: (any StoreReading<Post>) throws -> Result) throws -> Result {
        let fails = lock.withLock { () -> Bool in
            guard failing > 0 else { return false }
            failing -= 1
            return true
        }
        if fails { throw StoreError.busy }
        return try base.read(body)
    }
}

extension RemoteTransactionTests {
    @Test(
        "P46: a store read that fails after the mediator succeeded fails the refresh and keeps the rows",
        arguments: listStoreKinds)
    func p46StoreReadFailureKeepsTheRows(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind, schema: .mediated)
        try fixture.write { tx in
            tx.replaceWindow(
                of: "mediated", rows: posts(100, through: 81).map(Post.numbered),
                keys: StoreRemoteKeys(before: "end", after: "next:p2"))
        }
        let store = BusyReadStore(fixture)
        let mediator = ManualMediator()
        let list = PostList(
            store: store, collection: "mediated", pageSize: 20, remote: mediator, scheduler: TestScheduler())
        #expect(list.ids == posts(100, through: 81))
        store.failReads(1)
        try mediator.last.refresh(posts(120, through: 101))
        #expect(list.loadStates.value.refresh == .failed(.source(.busy)))
        #expect(list.remoteLoadStates.refresh == .idle(endReached: false))
        #expect(list.ids == posts(100, through: 81))
        list.retry()
        #expect(mediator.loads(.refresh).count == 2)
    }

    @Test("P52: a mediator's write body that throws before the commit leaves the old rows and keys after reopening")
    func p52ThrowBeforeCommitLeavesTheOldRows() throws {
        struct Crash: Error {}
        let setup = try Setup()
        setup.list.refresh()
        let refresh = setup.mediator.last
        #expect(throws: Crash.self) {
            try refresh.request.write { tx in
                tx.replaceWindow(
                    of: "mediated", rows: posts(220, through: 201).map(Post.numbered),
                    keys: StoreRemoteKeys(before: "end", after: "next:q2"))
                throw Crash()
            }
        }
        refresh.fail(Crash())
        let reopened = try SQLiteStore(path: setup.fixture.directory!.file("store.sqlite"), schema: .mediated)
        #expect(try reopened.walk("mediated", pageSize: 15) == posts(200, through: 161))
        #expect(try reopened.remoteKeys(of: "mediated") == StoreRemoteKeys(before: "end", after: "next:p3"))
        #expect(setup.list.ids == posts(200, through: 181))
    }
}
