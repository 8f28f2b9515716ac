import Foundation
import Reactive
import Stapler
import Testing

/// One `loadStates` for a list with a mediator: combined states wait for the store by data version (P46),
/// cached rows show first (P48), and a cancelled remote load is no failure (P51).
@Suite struct RemoteLoadStateTests {
    /// Stores posts `ids` as the mediated collection's window, with a bottom key.
    private func cache(_ ids: [Int], in setup: StoreListSetup) throws {
        try setup.fixture.write { tx in
            tx.replaceWindow(
                of: "mediated", rows: ids.map(Post.numbered), keys: StoreRemoteKeys(before: "end", after: "next:old"))
        }
    }

    /// Records each published snapshot's ids and refresh state.
    private final class SnapshotLog: @unchecked Sendable {
        // Guarded by `lock`.
        private var recorded: [(ids: [Int], refresh: LoadState<StoreError>)] = []
        private let lock = NSLock()
        private var subscription: (any Disposable)?

        init(_ list: PostList) {
            subscription = list.snapshot.signal.observeValues { [weak self] snapshot in
                guard let self else { return }
                lock.withLock { recorded.append((snapshot.items.map(\.id), snapshot.loadStates.refresh)) }
            }
        }

        deinit { subscription?.dispose() }

        var values: [(ids: [Int], refresh: LoadState<StoreError>)] { lock.withLock { recorded } }
    }

    @Test(
        "P48 (b): the first snapshot holds the cached rows, refreshing, before any mediator answer",
        arguments: listStoreKinds)
    func p48CachedRowsShowFirst(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try cache(posts(100, through: 71), in: setup)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator, pageSize: 30)
        #expect(mediator.calls == ["initialize", "refresh"])
        #expect(list.ids == posts(100, through: 71))
        #expect(list.loadStates.value.refresh.isLoading)
        #expect(list.remoteLoadStates.refresh == .loading)
        guard case .content(let content) = list.presentation.value else {
            Issue.record("not content: \(list.presentation.value)")
            return
        }
        #expect(content.itemCount == 30)
        #expect(content.isRefreshing)
    }

    @Test(
        "P48 (a), (d): an empty store is loading while the refresh runs, then shows its rows or empty",
        arguments: listStoreKinds, [true, false])
    func p48EmptyStoreWaitsForTheRefresh(kind: StoreKind, writes: Bool) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        #expect(list.presentation.value == .loading)
        if writes {
            try mediator.last.refresh(posts(120, through: 101))
            #expect(list.ids == posts(120, through: 101))
        } else {
            mediator.last.succeed(endReached: true)
            #expect(list.presentation.value == .empty)
        }
        #expect(list.loadStates.value.refresh.isIdle)
    }

    @Test(
        "P46: combined refresh stays loading until the list shows the mediator's commit, then ends with the rows",
        arguments: listStoreKinds)
    func p46RefreshWaitsForTheStore(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try cache(posts(100, through: 81), in: setup)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        let log = SnapshotLog(list)
        let refresh = mediator.last
        let pause = setup.probe.pause(at: .afterRead)
        let join = onAnotherThread { try? refresh.refresh(posts(120, through: 101)) }
        pause.waitUntilParked()
        #expect(list.remoteLoadStates.refresh == .idle(endReached: false))
        #expect(list.loadStates.value.refresh.isLoading)
        #expect(list.ids == posts(100, through: 81))
        pause.resume()
        join()
        #expect(list.ids == posts(120, through: 101))
        #expect(list.loadStates.value.refresh.isIdle)
        let values = log.values
        #expect(values.count == 1)
        #expect(values.last?.ids == posts(120, through: 101))
        #expect(values.allSatisfy { $0.refresh.isIdle == ($0.ids == posts(120, through: 101)) })
    }

    @Test("P46: a mediator call that commits nothing ends the wait at once", arguments: listStoreKinds)
    func p46NothingCommittedEndsAtOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try cache(posts(100, through: 81), in: setup)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        mediator.last.succeed()
        #expect(list.loadStates.value.refresh.isIdle)
        #expect(list.ids == posts(100, through: 81))
    }

    @Test("P46: a failed refresh keeps the rows, with a refresh-failed notice", arguments: listStoreKinds)
    func p46FailedRefreshKeepsTheRows(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try cache(posts(100, through: 81), in: setup)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        mediator.last.fail(Offline())
        #expect(list.ids == posts(100, through: 81))
        #expect(list.loadStates.value.refresh == .failed(.source(.remote(RemoteFailure(Offline())))))
        guard case .content(let content) = list.presentation.value else {
            Issue.record("not content: \(list.presentation.value)")
            return
        }
        #expect(content.refreshError == .source(.remote(RemoteFailure(Offline()))))
        list.retry()
        #expect(mediator.loads(.refresh).count == 2)
    }

    @Test(
        "P51: a cancelled append is no failure; the next edge hit asks once", arguments: listStoreKinds, [false, true])
    func p51CancelledAppendIsNoFailure(kind: StoreKind, appError: Bool) throws {
        struct Left: Error {}
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator, isCancellation: { $0 is Left })
        try mediator.last.refresh(posts(200, through: 181))
        list.preload(index: 19)
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 1)
        mediator.last.fail(appError ? Left() : CancellationError())
        #expect(list.remoteLoadStates.append == .idle(endReached: false))
        #expect(list.loadStates.value.append == .idle(endReached: false))
        #expect(list.ids == posts(200, through: 181))
        list.preload(index: 19)
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 2)
        #expect(mediator.last.edgeID == 181)
    }
}
