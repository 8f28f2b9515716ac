import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Test kit: settled(timeout:advancing:)")
struct SettledKitTests {
    @Test("P67: on a TestScheduler, settled() advances virtual time through the source's latency and no further")
    func P67_advancesOnlyThroughPendingWork() async throws {
        let server = RowsServer(rows: 100, latency: .milliseconds(100))
        let paginator = server.paginator()
        // A repeating timer that is not the paginator's work (a poll): it must not keep the wait running.
        let polls = Locked(0)
        let poll = server.scheduler.schedule(after: .seconds(30), interval: .seconds(30)) { polls.increment(by: 1) }
        defer { poll.dispose() }
        started { paginator.refresh() }
        // The naive check: the refresh reads loading, and nothing has moved in virtual time.
        #expect(paginator.items.value.isEmpty)
        try await paginator.settled(advancing: server.scheduler)
        #expect(paginator.items.value.count == 20)
        #expect(server.scheduler.now == .origin + .milliseconds(100))
        started { paginator.loadNextPage() }
        try await paginator.settled(advancing: server.scheduler)
        #expect(Array(paginator.items.value) == Array(0..<40))
        #expect(server.scheduler.now == .origin + .milliseconds(200))
        #expect(polls.value == 0)
    }

    @Test("P67: loadNextPage() at the end is ignored, and settled() returns without moving virtual time")
    func P67_ignoredCallSettlesAtOnce() async throws {
        let server = RowsServer(rows: 10)
        let paginator = server.paginator()
        started { paginator.refresh() }
        try await paginator.settled(advancing: server.scheduler)
        let before = server.scheduler.now
        #expect(synchronously { paginator.loadNextPage() } == .ignored(.endReached))
        try await paginator.settled(advancing: server.scheduler)
        #expect(server.scheduler.now == before)
    }

    @Test("P67, P71: a load nobody answers throws notSettled naming it after the timeout, and never hangs")
    func P67_unansweredLoadThrows() async {
        let server = ManualServer<Int, RowsPage, RowsError>()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 20, query: ())
        started { paginator.refresh() }
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: TestKitError.notSettled(pending: [.refresh(key: 0)])) {
            try await paginator.settled(timeout: .milliseconds(200))
        }
        #expect(start.duration(to: clock.now) >= .milliseconds(200))
    }

    @Test("P68: a key the fake source never produced fails the request, and settled() rethrows it naming the key")
    func P68_unknownKeyIsRethrown() async {
        let scheduler = TestScheduler()
        let paginator = Paginator(
            source: .offset { offset, size, _ -> SignalProducer<RowsPage, RowsError> in
                offset == 20
                    ? SignalProducer(error: RowsError(testKitError: .unknownKey("20")))
                    : SignalProducer(value: RowsPage(items: Array(offset..<offset + size), total: 100))
            }, pageSize: 20, query: ())
        started { paginator.refresh() }
        started { paginator.loadNextPage() }
        await #expect(throws: TestKitError.unknownKey("20")) {
            try await paginator.settled(advancing: scheduler)
        }
    }

    @Test("P67: a transformed list settles through the pages its filter emptied, in virtual time")
    func P67_transformedListSettles() async throws {
        let server = RowsServer(rows: 100)
        let paginator = server.paginator(pageSize: 10)
        let list = paginator.transformed { $0.filter { $0 < 10 || $0 >= 20 } }
        started { paginator.refresh() }
        try await list.settled(advancing: server.scheduler)
        list.preload(index: 9)
        try await list.settled(advancing: server.scheduler)
        #expect(server.requested.value == [0, 10, 20])
        #expect(list.items.value.count == 20)
    }

    @Test(
        "P67: 100 random scripts of loads and preloads of the last row: after each settle, exactly one more page shows")
    func P67_randomScriptsMatchTheOracle() async throws {
        for seed in 0..<stressRounds(100) {
            var random = SplitMix(seed: UInt64(seed))
            let server = RowsServer(rows: 95, latency: .milliseconds(Int(random.next() % 50)))
            let paginator = server.paginator(pageSize: 10)
            started { paginator.refresh() }
            try await paginator.settled(advancing: server.scheduler)
            var expected = 10
            for _ in 0..<12 {
                if random.next() % 2 == 0 {
                    started { paginator.loadNextPage() }
                } else {
                    paginator.preload(index: paginator.items.value.count - 1)
                }
                try await paginator.settled(advancing: server.scheduler)
                expected = min(expected + 10, 95)
                #expect(Array(paginator.items.value) == Array(0..<expected), "seed \(seed)")
            }
        }
    }
}

/// Makes `call` a synchronous call, as a view's handler makes it (in an `async` test the paginator's
/// `async` overload would be chosen).
func started<Failure>(_ call: () -> LoadOutcome<Failure>) {
    _ = call()
}

/// The outcome of a synchronous call.
func synchronously<Failure>(_ call: () -> LoadOutcome<Failure>) -> LoadOutcome<Failure> {
    call()
}
