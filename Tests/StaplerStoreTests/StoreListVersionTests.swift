import CSQLite
import Reactive
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// Reads that race commits: a page read before a commit that touched the collection never joins the list
/// (P47), and the first read is checked the same way (P48).
@Suite struct StoreListVersionTests {
    /// Deletes post 85 and inserts post 300 between posts 88 and 87, in one commit.
    private func deleteAndInsert(_ store: some LocalStore<Post>) throws -> UInt64 {
        try store.write { transaction in
            transaction.delete(85)
            transaction.upsert(Post(id: 300, createdAt: 875, title: "t300"))
        }.version
    }

    @Test(
        "P47: a next page read before a commit is discarded; one update at the newer version replaces it",
        arguments: listStoreKinds)
    func p47StaleNextPageIsDiscarded(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list()
        #expect(list.ids == Array((91...100).reversed()))
        let log = UpdateLog(list)
        let pause = setup.probe.pause(at: .afterRead)
        let join = onAnotherThread { list.loadNextPage() }
        pause.waitUntilParked()
        let parkedVersion = setup.probe.reads.last!.version
        let version = try deleteAndInsert(setup.fixture)
        pause.resume()
        join()
        #expect(version == parkedVersion + 1)
        #expect(log.updates.count == 1)
        #expect(log.updates.allSatisfy { $0.metadata?.version == version })
        #expect(list.ids == [100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 300, 87, 86, 84, 83, 82, 81])
        #expect(list.loadStates.value.append.isIdle)
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.failures.isEmpty)
    }

    @Test("P47: a previous page read before a commit is discarded the same way", arguments: listStoreKinds)
    func p47StalePreviousPageIsDiscarded(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(openingAt: .last)
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        list.loadPreviousPage()
        #expect(list.ids == Array((1...90).reversed()))
        let log = UpdateLog(list)
        let pause = setup.probe.pause(at: .afterRead)
        let join = onAnotherThread { list.loadPreviousPage() }
        pause.waitUntilParked()
        let version = try setup.fixture.write { transaction in
            transaction.delete(95)
            transaction.upsert(Post(id: 300, createdAt: 935, title: "t300"))
        }.version
        pause.resume()
        join()
        #expect(log.updates.count == 1)
        #expect(log.updates.allSatisfy { $0.metadata?.version == version })
        #expect(list.ids == [100, 99, 98, 97, 96, 94, 300, 93, 92, 91] + Array((1...90).reversed()))
        #expect(log.failures.isEmpty)
    }

    @Test("P47: a page read while a second SQLite connection commits is discarded the same way")
    func p47ExternalWriterCommitIsSeen() throws {
        let setup = try StoreListSetup(.sqliteWAL)
        let list = setup.list()
        let log = UpdateLog(list)
        let pause = setup.probe.pause(at: .afterRead)
        let join = onAnotherThread { list.loadNextPage() }
        pause.waitUntilParked()
        let parkedVersion = setup.probe.reads.last!.version
        // The same file through a second store: its commit reaches this list only through the file.
        let other = try SQLiteStore(path: setup.fixture.directory!.file("store.sqlite"), schema: .storeS)
        let version = try deleteAndInsert(other)
        pause.resume()
        join()
        #expect(version == parkedVersion + 1)
        #expect(log.updates.count == 1)
        #expect(log.updates.allSatisfy { $0.metadata?.version == version })
        #expect(list.ids == [100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 300, 87, 86, 84, 83, 82, 81])
        #expect(list.loadStates.value.append.isIdle)
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.failures.isEmpty)
    }

    @Test("P47: an idle list shows a second SQLite connection's commit once the store notices it")
    func p47ExternalCommitReachesAnIdleList() throws {
        let setup = try StoreListSetup(.sqliteWAL)
        let list = setup.list()
        list.loadNextPage()
        let log = UpdateLog(list)
        let other = try SQLiteStore(path: setup.fixture.directory!.file("store.sqlite"), schema: .storeS)
        let version = try deleteAndInsert(other)
        setup.scheduler.advance(by: .milliseconds(16))
        // Nothing read the file since: the commit is not known yet.
        #expect(log.updates.isEmpty)
        #expect(setup.fixture.dataVersion == version - 1)
        setup.fixture.noticeExternalCommits()
        #expect(setup.fixture.dataVersion == version)
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.metadata?.version == version)
        #expect(list.ids == [100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 300, 87, 86, 84, 83, 82, 81])
        #expect(log.failures.isEmpty)
    }

    @Test("P48: a first read parked while a commit lands shows the newer version first", arguments: listStoreKinds)
    func p48FirstReadBeforeACommitIsReadAgain(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let pause = setup.probe.pause(at: .afterRead)
        let made = Locked<PostList?>(nil)
        let join = onAnotherThread { made.value = setup.list() }
        pause.waitUntilParked()
        let version = try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 300, createdAt: 5000, title: "t300"))
        }.version
        pause.resume()
        join()
        let list = try #require(made.value)
        #expect(list.snapshot.value.metadata?.version == version)
        #expect(list.ids.first == 300)
        #expect(setup.probe.reads.count == 2)
    }

    @Test(
        "P48: with rows in the store, the first snapshot holds them when the initializer returns",
        arguments: listStoreKinds)
    func p48FirstSnapshotHoldsTheStoredRows(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: 1...30)
        let list = setup.list(pageSize: 20)
        #expect(list.ids == Array((11...30).reversed()))
        #expect(list.state.value.isData)
    }

    @Test("P48: an empty store wakes the list: its first write shows", arguments: listStoreKinds)
    func p48EmptyStoreStillListens(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let list = setup.list()
        #expect(list.ids.isEmpty)
        #expect(list.isEndReached.value)
        try setup.fixture.seed(1...20)
        setup.scheduler.advance(by: .milliseconds(16))
        // The empty list ended at both ends, so its window is the whole collection.
        #expect(list.ids == Array((1...20).reversed()))
    }

    @Test("P48: a write transaction held open on a second connection never delays the first read")
    func p48OpenWriteTransactionDoesNotDelayTheFirstRead() throws {
        let setup = try StoreListSetup(.sqliteWAL, seed: 1...30)
        let other = RawSQLite(setup.fixture.directory!.file("store.sqlite"))
        #expect(other.execute("BEGIN IMMEDIATE") == SQLITE_OK)
        let list = setup.list()
        #expect(list.ids == Array((21...30).reversed()))
        #expect(other.execute("ROLLBACK") == SQLITE_OK)
    }
}
