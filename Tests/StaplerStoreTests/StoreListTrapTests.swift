import Reactive
import Stapler
import Testing

/// A list over a collection the store does not have is a programming error, caught at once.
@Suite struct StoreListTrapTests {
    @Test("A list over a collection the store's schema lacks traps with a message naming collection")
    func unknownCollectionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = MemoryStore(schema: .storeS, clock: ManualWallClock())
            _ = Paginator(store: store, collection: "missing", pageSize: 10, scheduler: TestScheduler())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("collection \"missing\""))
    }
}
