import Reactive
import Stapler
import Testing

/// The mediator's requests: one slot per direction, a refresh first, ends and failures that hold (P49).
@Suite struct RemoteRequestRuleTests {
    /// A list over an empty store whose launch refresh wrote posts 200…181 (the bottom key `p2`).
    private func refreshed(_ setup: StoreListSetup, _ mediator: ManualMediator) throws -> PostList {
        let list = setup.mediatedList(mediator)
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        return list
    }

    @Test(
        "P49: edges wait for the launch refresh; then one edge hit makes one call, from the edge row",
        arguments: listStoreKinds)
    func p49EdgesWaitForTheFirstRefresh(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        #expect(mediator.calls == ["initialize", "refresh"])
        #expect(list.remoteLoadStates.append == .blocked)
        #expect(list.remoteLoadStates.prepend == .blocked)
        #expect(list.loadStates.value.refresh.isLoading)
        list.loadNextPage()
        list.preload(index: 0)
        #expect(mediator.calls == ["initialize", "refresh"])
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        #expect(list.ids == posts(200, through: 181))
        #expect(list.loadStates.value.refresh.isIdle)
        #expect(mediator.loads(.append).isEmpty)
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 1)
        #expect(mediator.last.edgeID == 181)
        #expect(try mediator.last.request.edgeKey() == .next("p2"))
        #expect(list.loadStates.value.append.isLoading)
        for _ in 0..<20 { list.preload(index: 19) }
        for id in 195...199 {
            try setup.fixture.write { tx in tx.upsert(Post(id: id, createdAt: 10 * id, title: "edited")) }
            setup.scheduler.advance(by: .milliseconds(16))
        }
        #expect(mediator.loads(.append).count == 1)
        try mediator.last.page(posts(180, through: 161), next: .next("p3"))
        #expect(list.ids == posts(200, through: 161))
        #expect(list.loadStates.value.append.isIdle)
        #expect(mediator.loads(.append).count == 1)
        list.preload(index: 39)
        #expect(mediator.loads(.append).count == 2)
        #expect(mediator.last.edgeID == 161)
        #expect(try mediator.last.request.edgeKey() == .next("p3"))
    }

    @Test("P49: a refresh cancels the running append, whose late result changes nothing", arguments: listStoreKinds)
    func p49RefreshCancelsTheAppend(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = try refreshed(setup, mediator)
        list.preload(index: 19)
        let append = mediator.last
        #expect(append.direction == .append)
        list.refresh()
        #expect(append.cancelCount == 1)
        #expect(mediator.last.direction == .refresh)
        let refresh = mediator.last
        // The cancelled append answers anyway: it writes nothing and ends nothing.
        #expect(throws: CancellationError.self) { try append.page(posts(180, through: 161), next: .end) }
        append.succeed(endReached: true)
        #expect(list.remoteLoadStates.append == .blocked)
        try refresh.refresh(posts(220, through: 201), after: .next("q2"))
        #expect(list.ids == posts(220, through: 201))
        #expect(list.remoteLoadStates.append == .idle(endReached: false))
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 2)
        #expect(mediator.last.edgeID == 201)
        #expect(try mediator.last.request.edgeKey() == .next("q2"))
    }

    @Test("P49: an ended append asks nothing more until a refresh reopens it", arguments: listStoreKinds)
    func p49EndedAppendStaysEnded(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = try refreshed(setup, mediator)
        list.preload(index: 19)
        try mediator.last.page(posts(180, through: 171), next: .end, endReached: true)
        #expect(list.ids == posts(200, through: 171))
        #expect(list.loadStates.value.append == .idle(endReached: true))
        #expect(list.remoteLoadStates.append == .idle(endReached: true))
        for _ in 0..<10 {
            list.preload(index: 29)
            list.loadNextPage()
        }
        #expect(mediator.loads(.append).count == 1)
        list.refresh()
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        #expect(list.remoteLoadStates.append == .idle(endReached: false))
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 2)
    }

    @Test("P49: a failed append waits for retry(), which asks once", arguments: listStoreKinds)
    func p49FailedAppendWaitsForRetry(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = try refreshed(setup, mediator)
        list.preload(index: 19)
        mediator.last.fail(Offline())
        #expect(list.loadStates.value.append == .failed(.source(.remote(RemoteFailure(Offline())))))
        #expect(list.remoteLoadStates.append == .failed(.remote(RemoteFailure(Offline()))))
        #expect(list.ids == posts(200, through: 181))
        for _ in 0..<10 { list.preload(index: 19) }
        #expect(mediator.loads(.append).count == 1)
        list.retry()
        #expect(mediator.loads(.append).count == 2)
        try mediator.last.page(posts(180, through: 161))
        #expect(list.ids == posts(200, through: 161))
    }

    @Test("P49: a prepend that ends at once leaves the append usable", arguments: listStoreKinds)
    func p49EndedPrependLeavesAppend(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = try refreshed(setup, mediator)
        list.preload(index: 0)
        #expect(mediator.last.direction == .prepend)
        #expect(mediator.last.edgeID == 200)
        mediator.last.succeed(endReached: true)
        #expect(list.loadStates.value.prepend == .idle(endReached: true))
        list.preload(index: 0)
        #expect(mediator.loads(.prepend).count == 1)
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 1)
        try mediator.last.page(posts(180, through: 161))
        #expect(list.ids == posts(200, through: 161))
    }

    @Test(
        "P49: a refresh of every page shown asks the mediator for one refresh, then reads the store",
        arguments: listStoreKinds)
    func p49ReloadAllAsksOneRefresh(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = try refreshed(setup, mediator)
        list.preload(index: 19)
        try mediator.last.page(posts(180, through: 161))
        #expect(list.ids == posts(200, through: 161))
        list.refresh(.reloadAll)
        #expect(mediator.loads(.refresh).count == 2)
        try mediator.last.refresh(posts(210, through: 171), after: .next("r3"))
        #expect(mediator.loads(.refresh).count == 2)
        #expect(list.ids == posts(210, through: 171))
        #expect(list.loadStates.value.refresh.isIdle)
    }

    @Test(
        "P49: after a failed launch refresh the list pages the store; at its end the edge waits, idle, for a refresh",
        arguments: listStoreKinds)
    func p49BlockedEdgeAfterAFailedLaunch(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try setup.fixture.write { tx in
            tx.replaceWindow(
                of: "mediated", rows: posts(200, through: 161).map(Post.numbered),
                keys: StoreRemoteKeys(before: "end", after: "next:p3"))
        }
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        mediator.last.fail(Offline())
        #expect(list.ids == posts(200, through: 181))
        list.loadNextPage()
        #expect(list.ids == posts(200, through: 161))
        list.loadNextPage()
        #expect(mediator.loads(.append).isEmpty)
        #expect(list.remoteLoadStates.append == .blocked)
        #expect(list.loadStates.value.append == .idle(endReached: false))
        list.retry()
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        // The refresh dropped the request recorded before it: the next edge hit asks.
        #expect(mediator.loads(.append).isEmpty)
        list.preload(index: 19)
        #expect(mediator.loads(.append).count == 1)
        #expect(mediator.last.edgeID == 181)
    }
}

/// A mediator's write holds no lock of its list while the store reports the commit.
@Suite struct RemoteWriteReentrancyTests {
    /// Whether the observer has reentered yet; touched on the test's thread only.
    private final class Once: @unchecked Sendable {
        var done = false
    }

    @Test(
        "An observer of the store's changes refreshes a mediated list and answers its mediator inside the report of the list's own commit: no deadlock, and the append the refresh cancelled ends nothing",
        arguments: listStoreKinds)
    func observerRefreshesInsideACommit(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        list.preload(index: 19)
        let append = mediator.last
        let once = Once()
        let observation = setup.probe.changes.observeValues { _ in
            guard !once.done else { return }
            once.done = true
            list.refresh()
            #expect(mediator.last.direction == .refresh)
            #expect(throws: Never.self) { try mediator.last.refresh(posts(220, through: 201), after: .next("q2")) }
        }
        defer { observation.dispose() }
        try append.page(posts(180, through: 161), next: .next("p3"))
        #expect(once.done)
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(list.ids == posts(220, through: 201))
        #expect(list.remoteLoadStates.append == .idle(endReached: false))
        #expect(list.loadStates.value.refresh.isIdle)
    }
}
