import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Test kit: fake sources and settled()")
struct FakeSourceSettleTests {
    @Test("P67: a fake source answering on the next turn: loadNextPage() then settled() shows rows 0-19, never 0-9")
    func P67_nextTurnSettles() async throws {
        for _ in 0..<200 {
            let fake = TestPageSource(Array(0..<100), delivery: .nextTurn)
            let paginator = Paginator(source: fake.offset(), pageSize: 10, query: ())
            started { paginator.refresh() }
            try await paginator.settled(timeout: .seconds(30))
            started { paginator.loadNextPage() }
            try await paginator.settled(timeout: .seconds(30))
            #expect(Array(paginator.items.value) == Array(0..<20))
        }
    }

    @Test(
        "P68: app code that adds the page size to a short page's offset asks for a key never produced; settled() names it"
    )
    func P68_appComputedKeyFailsTheTest() async {
        let fake = TestPageSource(Array(0..<100), delivery: .synchronous, pageCap: 8)
        // The app's own source: its next key is the request's offset plus the page size, whatever came back.
        let source = PageSource<Int, Int, Void, Void, TestSourceError>(firstKey: 0) { request in
            fake.loadOffset(request.key, size: request.pageSize, query: ()).map { response in
                Page(items: response.items, nextKey: request.key + request.pageSize)
            }
        }
        let paginator = Paginator(source: source, pageSize: 10, query: ())
        started { paginator.refresh() }
        started { paginator.loadNextPage() }
        await #expect(throws: TestKitError.unknownKey("10")) { try await paginator.settled(timeout: .seconds(30)) }
    }

    @Test("P67: a manual fake request never answered throws notSettled naming its key, on a TestScheduler too")
    func P67_manualRequestNeverAnswered() async {
        let fake = TestPageSource(Array(0..<100), delivery: .manual)
        let scheduler = TestScheduler()
        let paginator = Paginator(source: fake.offset(), pageSize: 20, query: ())
        started { paginator.refresh() }
        await #expect(throws: TestKitError.notSettled(pending: [.refresh(key: 0)])) {
            try await paginator.settled(timeout: .milliseconds(100), advancing: scheduler)
        }
        #expect(fake.pendingWork == [.refresh(key: 0)])
    }
}
