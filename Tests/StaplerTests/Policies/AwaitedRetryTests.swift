import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Awaited calls and automatic retries")
struct AwaitedRetryTests {
    typealias Outcome = LoadOutcome<ServerError>

    static func paginator(
        _ server: TwoEndedServer, clock: TestScheduler, loaded: Bool = true
    ) -> Paginator<Int, Int, String, Response, ServerError> {
        let policy = PagingPolicy(autoRetry: AutoRetry(maxRetries: 2, jitter: 0), clock: clock)
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q",
            options: PagingOptions(pageSize: 10, policy: policy))
        if loaded {
            synchronously { paginator.refresh() }
            answer(server.last, total: 100)
        }
        return paginator
    }

    @Test("P41: an awaited next page that an automatic retry rescues returns loaded, not the first failure")
    func P41_awaitedEdgeWaitsForTheRetry() async {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, clock: clock)
        let call = Task { await paginator.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 2 })
        server.last?.fail(.timeout)
        clock.advance(by: .seconds(1))
        #expect(server.requests.count == 3, "the automatic retry asks again")
        answer(server.last, total: 100)
        #expect(await call.value == .loaded)
    }

    @Test("P41: a retry that keeps failing returns the last failure once the retries are spent")
    func P41_awaitedEdgeFailsAfterTheRetries() async {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, clock: clock)
        let call = Task { await paginator.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 2 })
        for _ in 0..<3 {
            server.last?.fail(.timeout)
            clock.advance(by: .seconds(10))
        }
        #expect(server.requests.count == 4)
        #expect(await call.value == .failed(.source(.timeout)))
    }

    @Test("P41: cancel() or a refresh while a retry waits ends the awaited call cancelled or superseded")
    func P41_abandonedRetryEndsTheCall() async {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, clock: clock)
        let cancelled = Task { await paginator.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 2 })
        server.last?.fail(.timeout)
        synchronously { paginator.cancel() }
        #expect(await cancelled.value == .cancelled)
        clock.advance(by: .seconds(10))
        #expect(server.requests.count == 2, "the retry was cancelled")

        let superseded = Task { await paginator.retry() }
        #expect(await eventuallyPolling { server.requests.count == 3 })
        server.last?.fail(.timeout)
        synchronously { paginator.refresh() }
        #expect(await superseded.value == .superseded)
    }

    @Test("P41: an awaited refresh waits for its automatic retry; an explicit retry takes the waiting call over")
    func P41_awaitedRefreshWaitsForTheRetry() async {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, clock: clock, loaded: false)
        let refresh = Task { await paginator.refresh() }
        #expect(await eventuallyPolling { server.requests.count == 1 })
        server.last?.fail(.timeout)
        #expect(paginator.state.value == .errorRefreshing(.source(.timeout)))
        clock.advance(by: .seconds(1))
        answer(server.last, total: 100)
        #expect(await refresh.value == .loaded)

        let next = Task { await paginator.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 3 })
        server.last?.fail(.timeout)
        synchronously { paginator.retry() }
        #expect(server.requests.count == 4, "the explicit retry runs at once")
        answer(server.last, total: 100)
        #expect(await next.value == .loaded)
    }
}
