import Reactive
import Stapler
import Testing

/// The list's loads that waited for the mediator, once a refresh superseded them.
@Suite struct RemoteSupersededLoadTests {
    @Test(
        "P45: after a refresh superseded an append that waited for the mediator, commits during a reload still cause one coalesced read, not a read at once",
        arguments: listStoreKinds)
    func supersededAppendLeavesNothingWaiting(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind, seed: nil)
        let mediator = ManualMediator()
        let list = setup.mediatedList(mediator)
        try mediator.last.refresh(posts(200, through: 181), after: .next("p2"))
        // The store has nothing below 181: the append waits for the mediator, and a refresh supersedes it.
        list.preload(index: 19)
        #expect(mediator.last.direction == .append)
        list.refresh()
        try mediator.last.refresh(posts(220, through: 201), after: .next("q2"))
        #expect(list.ids == posts(220, through: 201))
        // The next append waits for the mediator too, and ends in the reload that shows its rows.
        list.preload(index: 19)
        try mediator.last.page(posts(200, through: 181), next: .next("p3"))
        #expect(list.ids == posts(220, through: 181))
        #expect(list.loadStates.value.append.isIdle)
        setup.scheduler.advance(by: .milliseconds(16))

        let latency = Duration.milliseconds(16)
        let reads = setup.probe.reads.count
        try setup.fixture.write { tx in tx.upsert(Post(id: 220, createdAt: 2200, title: "first")) }
        let pause = setup.probe.pause(at: .afterRead)
        let scheduler = setup.scheduler
        let join = onAnotherThread { scheduler.advance(by: latency) }
        pause.waitUntilParked()
        for round in 1...5 {
            try setup.fixture.write { tx in tx.upsert(Post(id: 219, createdAt: 2190, title: "round \(round)")) }
        }
        pause.resume()
        join()
        // Nothing waits for a reload any more, so the commits during the read wait for the latency.
        #expect(setup.probe.reads.count == reads + 1)
        setup.scheduler.advance(by: latency)
        #expect(setup.probe.reads.count == reads + 2)
        #expect(list.items.value.prefix(2).map(\.title) == ["first", "round 5"])
    }
}
