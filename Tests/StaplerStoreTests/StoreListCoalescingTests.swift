import Reactive
import Stapler
import TestSupport
import Testing

/// Bursts of commits reach a list as few window reads: a list showing 100…71 (30 rows), coalescing for
/// 100 ms on a test scheduler.
@Suite struct StoreListCoalescingTests {
    private let latency = Duration.milliseconds(100)

    /// A list showing 100…71, with its update log.
    private func opened(_ setup: StoreListSetup) -> (PostList, UpdateLog) {
        let list = setup.list(latency: latency)
        list.loadNextPage()
        list.loadNextPage()
        #expect(list.ids == Array((71...100).reversed()))
        return (list, UpdateLog(list))
    }

    @Test("P45: 500 posts inserted below the window in one commit: 1 read, 0 updates", arguments: listStoreKinds)
    func p45CommitBelowTheWindowReadsOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        let reads = setup.probe.reads.count
        try setup.fixture.write { transaction in
            transaction.upsert(contentsOf: (1001...1500).map { Post(id: $0, createdAt: $0 - 1000, title: "n\($0)") })
        }
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count == reads + 1)
        #expect(log.updates.isEmpty)
        #expect(list.ids == Array((71...100).reversed()))
    }

    @Test("P45: 500 single-row renames in the window: 1 read, 1 update of the renamed rows", arguments: listStoreKinds)
    func p45BurstOfRenamesIsOneUpdate(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        let reads = setup.probe.reads.count
        for round in 0..<500 {
            let id = 71 + round % 30
            try setup.fixture.write { transaction in
                transaction.upsert(Post(id: id, createdAt: 10 * id, title: "r\(round)"))
            }
        }
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count == reads + 1)
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.difference == ItemsDifference(removals: [], insertions: [], updates: Array(0..<30)))
        // The last renames: post 100 in round 479, post 90 in round 499.
        #expect(list.items.value.first?.title == "r479")
        #expect(list.items.value[10].title == "r499")
    }

    @Test(
        "P45: 50 commits while a reload is parked after its read cause exactly one more read", arguments: listStoreKinds
    )
    func p45CommitsDuringAReloadCauseOneMore(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        let reads = setup.probe.reads.count
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 100, createdAt: 1000, title: "first")) }
        let pause = setup.probe.pause(at: .afterRead)
        let scheduler = setup.scheduler
        let latency = latency
        let join = onAnotherThread { scheduler.advance(by: latency) }
        pause.waitUntilParked()
        for round in 1...50 {
            try setup.fixture.write { transaction in
                transaction.upsert(Post(id: 99, createdAt: 990, title: "round \(round)"))
            }
        }
        pause.resume()
        join()
        // The one more read is coalesced like any change: it waits for the latency, so a steady stream of
        // commits during reads still reads at most once per latency.
        #expect(setup.probe.reads.count == reads + 1)
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count == reads + 2)
        #expect(list.items.value.prefix(2).map(\.title) == ["first", "round 50"])
        #expect(log.updates.count == 1)
    }

    @Test("P45: a commit every 10 ms for 10 s reloads within 100 ms and at most 101 times", arguments: listStoreKinds)
    func p45SteadyStreamStillReloads(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, _) = opened(setup)
        let reads = setup.probe.reads.count
        for round in 1...1000 {
            try setup.fixture.write { transaction in
                transaction.upsert(Post(id: 100, createdAt: 1000, title: "round \(round)"))
            }
            setup.scheduler.advance(by: .milliseconds(10))
            if round == 10 { #expect(list.items.value.first?.title.hasPrefix("round") == true) }
        }
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count - reads <= 101)
        #expect(list.items.value.first?.title == "round 1000")
        #expect(list.ids == (try setup.fixture.page(of: "feed", .first, limit: 30).ids))
    }

    @Test("P45: a commit that touches no collection the list reads causes no read", arguments: listStoreKinds)
    func p45UnrelatedCommitReadsNothing(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        let reads = setup.probe.reads.count
        try setup.probe.write { transaction in
            transaction.setRemoteKeys(StoreRemoteKeys(after: "next"), of: "mediated")
        }
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.commits.count == 1)
        #expect(setup.probe.reads.count == reads)
        #expect(log.updates.isEmpty)
        #expect(list.ids.count == 30)
    }

    @Test("P45: rewriting post 95 with equal values 20 times reads, and publishes nothing", arguments: listStoreKinds)
    func p45EqualRewritesPublishNothing(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        let reads = setup.probe.reads.count
        let notified = Locked(0)
        let observation = list.snapshot.signal.observeValues { _ in notified.withLock { $0 += 1 } }
        defer { observation.dispose() }
        for _ in 1...20 {
            try setup.fixture.write { transaction in transaction.upsert(Post.numbered(95)) }
            setup.scheduler.advance(by: .milliseconds(10))
        }
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count > reads)
        #expect(log.updates.isEmpty)
        #expect(notified.value == 0)
    }
}
