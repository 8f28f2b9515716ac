import Reactive
import Stapler
import Testing

/// A list with a mediator: a programming error caught at once, and remote loads that end with the list.
@Suite struct RemoteLifetimeTests {
    @Test("A mediated list over a collection the store's schema lacks traps with a message naming collection")
    func unknownMediatedCollectionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = MemoryStore(schema: .storeS, clock: ManualWallClock())
            _ = Paginator(
                store: store, collection: "missing", pageSize: 10, remote: ManualMediator(), scheduler: TestScheduler())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("collection \"missing\""))
    }

    @Test("Releasing the list cancels its remote load, whose write then commits nothing", arguments: listStoreKinds)
    func releasingTheListCancelsItsLoads(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        var list: PostList? = setup.mediatedList(mediator)
        let refresh = mediator.last
        weak let released = list
        list = nil
        #expect(released == nil)
        #expect(refresh.cancelCount == 1)
        #expect(throws: CancellationError.self) { try refresh.refresh(posts(200, through: 181)) }
        #expect(try setup.fixture.count(of: "mediated") == 0)
    }

    @Test(
        "An unobserved list asks the mediator nothing until it is observed, then opens as shown lists do",
        arguments: listStoreKinds)
    func unobservedListWaitsToOpen(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        try setup.fixture.write { tx in
            tx.replaceWindow(
                of: "mediated", rows: posts(100, through: 81).map(Post.numbered),
                keys: StoreRemoteKeys(before: "end", after: "next:p2"))
        }
        let mediator = ManualMediator()
        let list = PostList(
            store: setup.probe, collection: "mediated", pageSize: 20, remote: mediator, scheduler: setup.scheduler,
            observed: false)
        #expect(mediator.calls == ["initialize"])
        #expect(list.ids.isEmpty)
        list.setObserved(true)
        #expect(mediator.calls == ["initialize", "refresh"])
        #expect(list.ids == posts(100, through: 81))
        #expect(list.loadStates.value.refresh.isLoading)
        try mediator.last.refresh(posts(120, through: 101))
        #expect(list.ids == posts(120, through: 101))
        list.setObserved(false)
        list.setObserved(true)
        #expect(mediator.calls == ["initialize", "refresh"])
    }
}
