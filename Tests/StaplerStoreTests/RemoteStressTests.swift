import Foundation
import Reactive
import Stapler
import Testing

/// The mediator's rules under real threads (P49, P46).
@Suite struct RemoteStressTests {
    /// A mediator that answers every load on another thread as soon as it is asked, writing a page, and
    /// records any time two loads of one direction were outstanding at once.
    private final class EagerMediator: RemoteMediator, @unchecked Sendable {
        typealias Row = Post

        // Guarded by `lock`.
        private var outstanding: [PageDirection: Int] = [:]
        private var overlaps = 0
        private var refreshCommits: [UInt64] = []
        private var serial = 1000
        private var loads = 0
        private let lock = NSLock()
        /// Every how many loads one ends by cancellation instead (0: never).
        let cancelEvery: Int

        init(cancelEvery: Int = 0) { self.cancelEvery = cancelEvery }

        var overlapCount: Int { lock.withLock { overlaps } }
        var lastRefreshCommit: UInt64? { lock.withLock { refreshCommits.last } }
        /// The first id of the latest refresh's window.
        var lastFirst: Int64 { lock.withLock { refreshFirst } }
        private var refreshFirst: Int64 = 0

        func load(_ request: RemoteRequest<Post>, completion: RemoteCompletion) -> any Disposable {
            let direction = request.direction
            let first = lock.withLock { () -> Int in
                outstanding[direction, default: 0] += 1
                if outstanding[direction]! > 1 { overlaps += 1 }
                serial += 20
                loads += 1
                return serial
            }
            let cancels = cancelEvery > 0 && (first / 20) % cancelEvery == 0
            let done = LockedFlag()
            let end: @Sendable () -> Void = { [self] in
                guard !done.isSet else { return }
                done.set()
                lock.withLock { outstanding[direction, default: 0] -= 1 }
            }
            Thread {
                let ids = (0..<5).map { first - $0 }
                if cancels {
                    end()
                    return completion.finish(.failure(CancellationError()))
                }
                do {
                    if direction == .refresh {
                        let change = try request.write { tx in
                            tx.replaceWindow(
                                of: request.collection, rows: ids.map(Post.numbered),
                                keys: StoreRemoteKeys(before: "end", after: "next:x"))
                        }
                        self.lock.withLock {
                            self.refreshCommits.append(change.version)
                            self.refreshFirst = Int64(first)
                        }
                    } else {
                        try request.commitPage(
                            ids.map { Post(id: $0, createdAt: -$0, title: "p") }, next: .next("x"))
                    }
                    end()
                    completion.finish(.success(endReached: false))
                } catch {
                    end()
                    completion.finish(.failure(error))
                }
            }.start()
            return AnyDisposable { end() }
        }
    }

    @Test(
        "P49 stress: refresh, preload and retry from threads never run two loads of one direction",
        arguments: listStoreKinds)
    func p49StressOneLoadPerDirection(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = EagerMediator()
        let list = setup.mediatedList(mediator, pageSize: 5)
        for _ in 0..<100 {
            let joins = [
                onAnotherThread { list.refresh() },
                onAnotherThread { for _ in 0..<5 { list.preload(index: max(0, list.items.value.count - 1)) } },
                onAnotherThread { list.retry() },
                onAnotherThread { _ = try? setup.fixture.write { tx in tx.upsert(Post.numbered(1)) } },
            ]
            for join in joins { join() }
        }
        #expect(mediator.overlapCount == 0)
    }

    @Test(
        "P46 stress: with a writer thread racing each refresh, an awaited refresh shows the mediator's last commit",
        arguments: listStoreKinds)
    func p46StressIdleMeansShown(kind: StoreKind) async throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = EagerMediator()
        let list = setup.mediatedList(mediator, pageSize: 5)
        let stop = LockedFlag()
        let reader = onAnotherThread {
            while !stop.isSet {
                let snapshot = list.snapshot.value
                _ = (snapshot.items.count, snapshot.loadStates.refresh.isLoading)
            }
        }
        for _ in 0..<100 {
            let writer = onAnotherThread { _ = try? setup.fixture.write { tx in tx.upsert(Post.numbered(1)) } }
            let outcome = await list.refresh()
            writer()
            let snapshot = list.snapshot.value
            #expect(outcome == .loaded)
            #expect(snapshot.loadStates.refresh.isIdle)
            let commit = try #require(mediator.lastRefreshCommit)
            #expect((snapshot.metadata?.version ?? 0) >= commit)
            #expect(snapshot.items.first?.id == Int(mediator.lastFirst))
        }
        stop.set()
        reader()
    }

    @Test(
        "P51 stress: threads attach and detach observers and preload while cancelled loads never fail the append",
        arguments: listStoreKinds)
    func p51StressCancelledLoadsNeverFail(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = EagerMediator(cancelEvery: 3)
        let list = setup.mediatedList(mediator, pageSize: 5)
        for _ in 0..<100 {
            let joins = (0..<4).map { _ in
                onAnotherThread {
                    let observer = list.loadStates.signal.observeValues { _ in }
                    list.preload(index: max(0, list.items.value.count - 1))
                    observer.dispose()
                }
            }
            for join in joins { join() }
            #expect(list.loadStates.value.append.error == nil)
            #expect(list.remoteLoadStates.append.isFailed == false)
        }
        #expect(mediator.overlapCount == 0)
    }

    @Test("P52 stress: refresh and append threads commit while a reader connection never sees an empty list or no key")
    func p52StressReadersSeeWholeCommits() throws {
        let setup = try StoreListSetup(.sqliteWAL, seed: nil)
        let mediator = EagerMediator()
        let list = setup.mediatedList(mediator, pageSize: 5)
        let path = setup.fixture.directory!.file("store.sqlite")
        let stop = LockedFlag()
        let seen = LockedCounts()
        // The reader starts once the launch refresh committed: from then on the list is never empty.
        while mediator.lastRefreshCommit == nil { Thread.sleep(forTimeInterval: 0.001) }
        let reader = onAnotherThread {
            let raw = RawSQLite(path)
            while !stop.isSet {
                let value = raw.integer(
                    """
                    SELECT (SELECT count(*) FROM stapler_members WHERE collection = 'mediated') * 2
                        + ((SELECT keyAfter FROM stapler_collections WHERE name = 'mediated') IS NOT NULL)
                    """)
                if let value { seen.insert(value) }
            }
        }
        let refresher = onAnotherThread { for _ in 0..<100 { list.refresh() } }
        let appender = onAnotherThread {
            for _ in 0..<300 { list.preload(index: max(0, list.items.value.count - 1)) }
        }
        refresher()
        appender()
        stop.set()
        reader()
        let values = seen.values
        #expect(!values.isEmpty)
        #expect(values.allSatisfy { $0 % 2 == 1 && $0 / 2 > 0 })
    }
}

extension RemoteLoadState {
    var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}
