import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Policies for slow networks and bad servers")
struct PolicyTests {
    /// A paginator over an offset server with `policy`, its first page (0..<10 of 100) loaded.
    func loaded(_ server: TwoEndedServer, policy: PagingPolicy) -> Paginator<Int, Int, String, Response, ServerError> {
        let paginator = offsetPaginator(server, policy: policy)
        paginator.refresh()
        answer(server.last, total: 100)
        return paginator
    }

    @Test("P39: a load that does not answer in time fails timedOut and is disposed; its late answer never lands")
    func P39_timeout() {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = loaded(server, policy: PagingPolicy(loadTimeout: .seconds(10), clock: clock))
        let errors = paginator.errorsAfterFirstPage.record()
        paginator.loadNextPage()
        let next = server.last
        clock.advance(by: .milliseconds(9_999))
        #expect(paginator.loadStates.value.append == .loading)
        clock.advance(by: .milliseconds(1))
        #expect(paginator.loadStates.value.append == .failed(.timedOut))
        #expect(next?.disposeCount == 1)
        #expect(errors.values == [.timedOut])
        answer(next, total: 100)
        #expect(paginator.items.value.count == 10, "the late answer is dropped")
        paginator.retry()
        clock.advance(by: .seconds(9))
        answer(server.last, total: 100)
        clock.advance(by: .seconds(100))
        #expect(paginator.loadStates.value.append == .idle(endReached: false), "no timeout after success")
        #expect(clock.nextDue == nil, "no pending work")
    }

    @Test("P39: a refresh cancels the timer of the load it supersedes and starts its own")
    func P39_refreshRestartsTheTimer() {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let paginator = loaded(server, policy: PagingPolicy(loadTimeout: .seconds(10), clock: clock))
        paginator.loadNextPage()
        clock.advance(by: .seconds(5))
        paginator.refresh()
        clock.advance(by: .seconds(9))
        #expect(paginator.loadStates.value.refresh == .loading)
        clock.advance(by: .seconds(1))
        #expect(paginator.loadStates.value.refresh == .failed(.timedOut))
        #expect(paginator.loadStates.value.append == .idle(endReached: false))
    }

    // The waits yield instead of polling with sleeps: in a full sanitizer run, timed sleeps of the
    // cooperative pool wake late, and 100 rounds of them made this test outlast all the others by minutes.
    // Each wait also ends when the test is cancelled. There is no time limit: under Thread Sanitizer on a
    // loaded machine the test waits minutes for the pool's threads (it exceeded 2 minutes so); CI's
    // deadline for the whole pass stops a load that never ends.
    //
    // The timer starts before the request: on a busy machine it can fire first, and the load then ends
    // timed out with no request made. So a round waits for its request or its outcome, whichever comes.
    @Test(
        "P39: with a 1 ms timeout on a real queue and answers around 1 ms from other threads, each load ends once"
    )
    func P39_racingTimeouts() async {
        let server = TwoEndedServer()
        let clock = QueueScheduler(label: "P39.clock")
        let paginator = offsetPaginator(server, policy: PagingPolicy(loadTimeout: .milliseconds(1), clock: clock))
        var outcomes: [String: Int] = [:]
        var unrequested: [String] = []
        for _ in 0..<100 {
            let before = server.requests.count
            let ended = Locked(false)
            let task = Task {
                let outcome = await paginator.refresh()
                ended.value = true
                return outcome
            }
            while server.requests.count == before, !ended.value, !Task.isCancelled { await Task.yield() }
            let requests = server.requests
            if requests.count > before {
                let request = requests[before]
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 500...1_500))) {
                    answer(request, total: 100)
                }
            }
            let outcome = "\(await task.value)"
            outcomes[outcome, default: 0] += 1
            if server.requests.count == before { unrequested.append(outcome) }
        }
        #expect(server.requests.count <= 100, "at most one request per refresh")
        #expect(outcomes.keys.allSatisfy { $0 == "loaded" || $0 == "failed(the load timed out)" }, "\(outcomes)")
        #expect(
            unrequested.allSatisfy { $0 == "failed(the load timed out)" },
            "a refresh that made no request can only have timed out first: \(unrequested)")
    }

    @Test("P39: a timeout that fires before the request starts ends the load timed out, and it makes no request")
    func P39_timeoutBeforeTheRequest() {
        let server = TwoEndedServer()
        let clock = ElapsedClock()
        let paginator = offsetPaginator(server, policy: PagingPolicy(loadTimeout: .milliseconds(1), clock: clock))
        #expect(paginator.refresh() == .started)
        #expect(server.requests.isEmpty, "the timed-out load never starts its request")
        #expect(paginator.loadStates.value.refresh == .failed(.timedOut))
        paginator.retry()
        #expect(server.requests.isEmpty)
        #expect(paginator.loadStates.value.refresh == .failed(.timedOut), "a retry times out the same way")
    }

    @Test("P40: with a limit, empty and all-duplicate pages are followed by themselves until the limit ends the list")
    func P40_noProgressLimit() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 1) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }, policy: PagingPolicy(noProgressLimit: 3)))
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        paginator.loadNextPage()
        server.last?.succeed(Page(items: [], nextKey: 3))
        #expect(server.keys == [1, 2, 3], "an empty page with a next key is followed at once")
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 4))
        #expect(server.keys == [1, 2, 3, 4], "a page of duplicates too")
        server.last?.succeed(Page(items: [], nextKey: 5))
        #expect(server.keys == [1, 2, 3, 4], "the third page in a row that adds nothing ends the list")
        #expect(paginator.loadStates.value.append == .idle(endReached: true))
        #expect(paginator.snapshot.value.stopReason == .noProgress(pages: 3))
        for _ in 0..<10 { paginator.loadNextPage() }
        #expect(server.requests.count == 4)
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        #expect(paginator.snapshot.value.stopReason == nil, "a refresh starts the count again")
    }

    @Test("P40: a page that adds a row starts the count again; without the option an empty page ends the list")
    func P40_progressResets() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 1) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }, policy: PagingPolicy(noProgressLimit: 3)))
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        paginator.loadNextPage()
        server.last?.succeed(Page(items: [], nextKey: 3))
        server.last?.succeed(Page(items: [5, 50], nextKey: 4))
        #expect(server.keys == [1, 2, 3], "a page that adds a row waits for the list to ask for more")
        paginator.loadNextPage()
        server.last?.succeed(Page(items: [], nextKey: 5))
        server.last?.succeed(Page(items: [], nextKey: 6))
        #expect(server.keys == [1, 2, 3, 4, 5, 6], "the count restarted at the page that added 50")

        let plain = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let defaults = Paginator(
            source: PageSource(firstKey: 1) { request in plain.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        defaults.refresh()
        plain.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        defaults.loadNextPage()
        plain.last?.succeed(Page(items: [], nextKey: 3))
        #expect(defaults.isEndReached.value && defaults.snapshot.value.stopReason == .endOfList)
    }

    @Test("P18, P40: by default three pages of duplicates in a row end the list instead of spinning forever")
    func P40_defaultDuplicateCap() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 1) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        for key in 2...4 {
            paginator.loadNextPage()
            server.last?.succeed(Page(items: Array(0..<10), nextKey: key + 1))
        }
        #expect(paginator.snapshot.value.stopReason == .noProgress(pages: 3))
        paginator.loadNextPage()
        #expect(server.keys == [1, 2, 3, 4])
    }

    @Test("P41: a failed page is retried with the same key after a jittered, growing backoff, up to the cap")
    func P41_backoff() {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let retry = AutoRetry(maxRetries: 3, base: .seconds(1), factor: 2, maxDelay: .seconds(30), jitter: 0.5) { 0.5 }
        let paginator = loaded(server, policy: PagingPolicy(autoRetry: retry, clock: clock))
        paginator.loadNextPage()
        server.last?.fail(.timeout)
        for _ in 0..<50 { paginator.preload(index: 9) }
        clock.advance(by: .milliseconds(990))
        #expect(server.requests.count == 2, "no retry before the delay; preload adds none")
        clock.advance(by: .milliseconds(10))
        #expect(server.keys == [0, 10, 10], "the same key")
        server.last?.fail(.timeout)
        clock.advance(by: .milliseconds(1_999))
        #expect(server.requests.count == 3)
        clock.advance(by: .milliseconds(1))
        #expect(server.requests.count == 4)
        server.last?.fail(.timeout)
        clock.advance(by: .seconds(4))
        #expect(server.requests.count == 5)
        server.last?.fail(.timeout)
        clock.advance(by: .seconds(100))
        #expect(server.requests.count == 5, "after three retries the failure stands")
        #expect(paginator.loadStates.value.append == .failed(.source(.timeout)))
        #expect(clock.nextDue == nil)
        paginator.retry()
        #expect(server.requests.count == 6, "an explicit retry runs at once")
    }

    @Test("P41: a refresh, cancel or release cancels a pending retry; a repeated key is not retried")
    func P41_cancelledRetries() {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        let policy = PagingPolicy(autoRetry: AutoRetry(jitter: 0), clock: clock)
        let paginator = loaded(server, policy: policy)
        paginator.loadNextPage()
        server.last?.fail(.timeout)
        paginator.refresh()
        clock.advance(by: .seconds(100))
        #expect(server.keys == [0, 10, 0], "only the refresh's request")
        answer(server.last, total: 100)
        paginator.loadNextPage()
        server.last?.fail(.timeout)
        paginator.cancel()
        clock.advance(by: .seconds(100))
        #expect(server.requests.count == 4)

        let cursorServer = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let looping = Paginator(
            source: PageSource(firstKey: 1) { request in cursorServer.producer(request.key) },
            options: PagingOptions(pageSize: 10, policy: policy))
        looping.refresh()
        cursorServer.last?.succeed(Page(items: [1], nextKey: 2))
        looping.loadNextPage()
        cursorServer.last?.succeed(Page(items: [2], nextKey: 2))
        #expect(looping.snapshot.value.stopReason == .repeatedKey)
        clock.advance(by: .seconds(100))
        #expect(cursorServer.requests.count == 2, "a repeated key is not retried")
        #expect(looping.presentation.value == .content(ListContent(itemCount: 1, footer: .unavailable(.repeatedKey))))

        weak var released: Paginator<Int, Int, String, Response, ServerError>?
        let releasedServer = TwoEndedServer()
        do {
            let doomed = loaded(releasedServer, policy: policy)
            released = doomed
            doomed.loadNextPage()
            releasedServer.last?.fail(.timeout)
        }
        clock.advance(by: .seconds(100))
        #expect(released == nil)
        #expect(releasedServer.requests.count == 2)
    }

    @Test("P41: 100 paginators failing concurrently retry spread over the jitter, never more than the cap")
    func P41_concurrentJitter() {
        let clock = TestScheduler()
        let server = TwoEndedServer()
        var random = SplitMix(seed: 41)
        let paginators = (0..<100).map { _ in
            let seed = random.next()
            let generator = Locked(SplitMix(seed: seed))
            let retry = AutoRetry(maxRetries: 2, base: .seconds(1), jitter: 0.5) {
                generator.withLock { Double($0.next() % 1_000_000) / 1_000_000 }
            }
            return loaded(server, policy: PagingPolicy(autoRetry: retry, clock: clock))
        }
        for paginator in paginators {
            paginator.loadNextPage()
            server.last?.fail(.timeout)
        }
        var times: [Int] = []
        for step in 1...5_000 {
            let before = server.requests.count
            clock.advance(by: .milliseconds(1))
            for _ in before..<server.requests.count { times.append(step) }
            for request in server.requests[before...] { request.fail(.timeout) }
        }
        let first = times.prefix(100)
        #expect((first.max() ?? 0) - (first.min() ?? 0) >= 500, "retries spread over at least half the base delay")
        #expect(times.count == 200, "two retries each, no more")
        _ = paginators
    }
}

/// A clock on which every timer is already due when it is set: its action runs inside `schedule`, as a
/// real timer does when the thread that set it is descheduled past its deadline.
private struct ElapsedClock: TimeScheduler {
    private let base = TestScheduler()

    var now: SchedulerInstant { base.now }

    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }

    func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return AnyDisposable()
    }

    func schedule(
        after delay: Duration, interval: Duration, leeway: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        base.schedule(after: delay, interval: interval, leeway: leeway, action: action)
    }
}
