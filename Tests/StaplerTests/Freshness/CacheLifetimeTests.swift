import Reactive
import Stapler
import TestSupport
import Testing

/// `QueryCache.last(_:evictUnobservedAfter:)`: a kept list nobody shows is evicted on the policy's clock,
/// and going back to its query races that eviction without ever getting half a list.
@Suite("Query cache lifetimes")
struct CacheLifetimeTests {
    static func paginator(
        _ server: QueryServer, clock: TestScheduler, capacity: Int = 3
    ) -> Paginator<QueryRow, Int, String, QueryRows, ServerError> {
        Paginator(
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) }, query: "A",
            options: PagingOptions(
                pageSize: 10, policy: PagingPolicy(clock: clock),
                queryCache: .last(capacity, evictUnobservedAfter: .seconds(300))))
    }

    /// Shows query A's 20 rows, then query B's first page; A is kept from the clock's now on.
    static func showAThenB(
        _ paginator: Paginator<QueryRow, Int, String, QueryRows, ServerError>, _ server: QueryServer
    ) -> WeakBox<QueryRow> {
        paginator.refresh()
        server.last?.answerRows()
        paginator.loadNextPage()
        server.last?.answerRows()
        let weakA = WeakBox(paginator.items.value[0])
        paginator.refresh(query: "B")
        server.last?.answerRows()
        return weakA
    }

    @Test("P65: back to a kept list before its time: the same rows at once; after its time it is freed")
    func evictedAfterTheTime() {
        let server = QueryServer()
        let clock = TestScheduler()
        let paginator = Self.paginator(server, clock: clock)
        let weakA = Self.showAThenB(paginator, server)
        #expect(clock.pendingCount == 1, "A's eviction")
        clock.advance(by: .seconds(299))
        paginator.refresh(query: "A")
        #expect(paginator.items.value.count == 20, "A's kept rows, in the same call")
        #expect(paginator.items.value[0] === weakA.value, "the same list, not a copy")
        #expect(paginator.snapshot.value.isStale)
        #expect(clock.pendingCount == 1, "A's eviction stopped; B's started")
        server.last?.answerRows()

        let weakFreshA = WeakBox(paginator.items.value[0])
        paginator.refresh(query: "B")
        #expect(paginator.items.value.allSatisfy { $0.query == "B" }, "B was kept meanwhile")
        server.last?.answerRows()
        clock.advance(by: .seconds(299))
        #expect(weakFreshA.value != nil)
        clock.advance(by: .seconds(1))
        #expect(weakFreshA.value == nil, "A's list was evicted and freed")
        #expect(clock.pendingCount == 0)
        paginator.refresh(query: "A")
        #expect(paginator.items.value.allSatisfy { $0.query == "B" }, "A loads anew: B's rows until its page")
        #expect(!paginator.snapshot.value.isStale)
        server.last?.answerRows()
        #expect(paginator.items.value.map(\.query) == Array(repeating: "A", count: 10))
        clock.advance(by: .seconds(300))
        #expect(clock.pendingCount == 0)
    }

    @Test("P65: beyond the capacity the least recently shown goes at once, and its timer with it")
    func capacityBeforeTime() {
        let server = QueryServer()
        let clock = TestScheduler()
        let paginator = Self.paginator(server, clock: clock, capacity: 2)
        let weakA = Self.showAThenB(paginator, server)
        for query in ["C", "D"] {
            paginator.refresh(query: query)
            server.last?.answerRows()
        }
        #expect(weakA.value == nil, "A, B and C kept: A, the least recently shown, went at once")
        #expect(clock.pendingCount == 2, "the timers of B and C; A's was disposed")
        clock.advance(by: .seconds(300))
        #expect(clock.pendingCount == 0)
    }

    @Test("P65: a paginator that goes disposes its eviction timers")
    func timersGoWithThePaginator() {
        let server = QueryServer()
        let clock = TestScheduler()
        var paginator: Paginator<QueryRow, Int, String, QueryRows, ServerError>? = Self.paginator(server, clock: clock)
        _ = Self.showAThenB(paginator!, server)
        #expect(clock.pendingCount == 1)
        paginator = nil
        #expect(clock.pendingCount == 0)
    }

    @Test("P65: a restored paginator keeps its list in the query cache it is given")
    func restoredWithACache() throws {
        let server = QueryServer()
        let clock = TestScheduler()
        let original = Self.paginator(server, clock: clock)
        original.refresh()
        server.last?.answerRows()
        let saved = try #require(original.savedState)
        let restored = try Paginator(
            restoring: saved,
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) },
            options: PagingOptions(
                pageSize: 10, policy: PagingPolicy(clock: clock),
                queryCache: .last(2, evictUnobservedAfter: .seconds(300))))
        restored.refresh(query: "B")
        server.last?.answerRows()
        restored.refresh(query: "A")
        #expect(restored.items.value.map(\.description) == (0..<10).map { "A\($0)" }, "the restored list, kept")
        #expect(restored.snapshot.value.isStale)
    }

    @Test("P65: racing threads: going back to a query while its eviction fires shows it whole or loads it anew")
    func racingEvictionAndReturn() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for iteration in 0..<stressRounds(1_000) {
            let server = QueryServer()
            let clock = TestScheduler()
            let paginator = Self.paginator(server, clock: clock)
            _ = Self.showAThenB(paginator, server)
            clock.advance(by: .seconds(299))
            let requests = server.requests.count
            racers.race { thread in
                if thread == 0 {
                    clock.advance(by: .seconds(1))
                } else {
                    paginator.refresh(query: "A")
                }
            }
            let rows = Array(paginator.items.value)
            let fromCache = rows.count == 20 && rows.allSatisfy { $0.query == "A" }
            let anew = rows.allSatisfy { $0.query == "B" } && !paginator.snapshot.value.isStale
            #expect(fromCache || anew, "iteration \(iteration): \(rows)")
            #expect(server.requests.count == requests + 1, "one request for A either way")
            server.last?.answerRows()
            #expect(paginator.items.value.map(\.query) == Array(repeating: "A", count: 10))
            clock.advance(by: .seconds(300))
            #expect(clock.pendingCount == 0, "iteration \(iteration): a timer left behind")
        }
    }

    @Test("a negative eviction time traps, naming evictUnobservedAfter")
    func negativeTimeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = QueryCache<Int>.last(1, evictUnobservedAfter: .seconds(-1))
        }
    }
}

extension CacheLifetimeTests {
    @Test("P61: a kept list revalidated with .firstPage: one request for its top page, merged by identity")
    func firstPageRevalidation() {
        let server = QueryServer()
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) }, query: "A",
            options: PagingOptions(
                pageSize: 10, deduplication: .by(\.description), queryCache: .last(2, revalidation: .firstPage)))
        paginator.refresh()
        server.last?.answerRows()
        paginator.loadNextPage()
        server.last?.answerRows()
        paginator.refresh(query: "B")
        server.last?.answerRows()
        let requests = server.requests.count
        paginator.refresh(query: "A")
        #expect(server.last?.key == "A@0")
        server.last?.answerRows()
        #expect(server.requests.count == requests + 1)
        #expect(paginator.items.value.map(\.description) == (0..<20).map { "A\($0)" }, "the rows below stay")
        #expect(!paginator.snapshot.value.isStale)
    }
}
