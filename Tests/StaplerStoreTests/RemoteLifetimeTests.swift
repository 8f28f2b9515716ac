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
}
