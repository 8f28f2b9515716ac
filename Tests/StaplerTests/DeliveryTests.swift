import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// `deliveringOn:` moves every notification and every property change onto one scheduler.
@Suite("Delivery on a scheduler")
struct DeliveryTests {
    @Test("P14: with a delivery scheduler nothing is notified or changed until the scheduler runs, then all in order")
    func P14_nothingUntilTheSchedulerRuns() {
        let scheduler = TestScheduler()
        let server = OffsetServer()
        let stapler = Stapler<Response, ServerError>(pageSize: 10, deliveringOn: scheduler) { offset, size in
            server.producer(offset, size: size)
        }
        let states = stapler.paginator.state.recordValues()
        let updates = Locked<[ItemsChange]>([])
        stapler.paginator.updates.observeValues { updates.append($0.change) }
        let completed = Locked(0)
        stapler.refreshAction.completed.observeValues { completed.increment(by: 1) }

        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: 20))
        #expect(server.keys == [0], "the request itself is not delayed")
        #expect(states.value == [.uninitialized])
        #expect(stapler.items.value.isEmpty && stapler.paginator.state.value == .uninitialized)
        #expect(updates.value.isEmpty && completed.value == 0)
        #expect(scheduler.pendingCount > 0)

        scheduler.run()
        #expect(states.value == [.uninitialized, .refreshing, .data])
        #expect(updates.value == [.reloaded])
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(completed.value == 1)

        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10], "the gate reads the engine, not the delayed properties")
        server.last?.succeed(page(10, 10, total: 20))
        #expect(stapler.items.value.count == 10)
        scheduler.run()
        #expect(states.value == [.uninitialized, .refreshing, .data, .loadingMore, .data])
        #expect(updates.value == [.reloaded, .appended(10..<20)])
        expectNoPendingWork(scheduler)
    }

    @Test("P14: every appended change arrives on the scheduler with the snapshot it describes")
    func P14_changesMatchSnapshotsOnTheScheduler() {
        let scheduler = TestScheduler()
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 5, deliveringOn: scheduler))
        let mismatches = Locked<[String]>([])
        paginator.updates.observeValues { update in
            if case .appended(let rows) = update.change,
                update.previous.count != rows.lowerBound || update.items.count != rows.upperBound
                    || paginator.items.value.count != rows.upperBound
            {
                mismatches.append("\(rows) previous \(update.previous.count) now \(update.items.count)")
            }
        }
        paginator.refresh()
        server.last?.succeed(page(0, 5, total: 40))
        for step in 1...20 {
            paginator.loadNextPage()
            guard let request = server.last, !request.isDisposed else { break }
            request.succeed(page(request.key, min(step.isMultiple(of: 2) ? 5 : 3, 40 - request.key), total: 40))
            if step.isMultiple(of: 3) { scheduler.run() }
        }
        scheduler.run()
        #expect(mismatches.value.isEmpty)
        #expect(paginator.isEndReached.value && Array(paginator.items.value) == Array(0..<40))
    }

    @Test("P14: on a queue, every notification runs on that queue, serially, under concurrent calls and responses")
    func P14_stressOnAQueue() {
        let key = DispatchSpecificKey<Int>()
        let target = DispatchQueue(label: "delivery.target")
        target.setSpecific(key: key, value: 42)
        for iteration in 0..<200 {
            let server = OffsetServer()
            let paginator = Paginator(
                source: .offset { offset, size, query in server.producer(offset + query * 1_000, size: size) },
                query: 0,
                options: PagingOptions(pageSize: 5, deliveringOn: QueueScheduler(targeting: target)))
            let offQueue = Locked(0)
            nonisolated(unsafe) var unsynchronisedCount = 0
            paginator.updates.observeValues { update in
                if DispatchQueue.getSpecific(key: key) != 42 { offQueue.increment(by: 1) }
                // Unsynchronised on purpose: TSan reports a race if deliveries ever overlap.
                unsynchronisedCount += 1
                if case .appended(let rows) = update.change {
                    #expect(update.previous.count == rows.lowerBound && update.items.count == rows.upperBound)
                }
            }
            paginator.refresh()
            server.last?.succeed(page(0, 5, total: 1_000))
            raceFromBarrier(threads: 4) { thread in
                for step in 0..<50 {
                    switch (thread, step % 10) {
                    case (0, 0): paginator.refresh(query: step % 3)
                    case (1, _): paginator.retry()
                    case (2, _), (3, _):
                        if let request = server.requests.last, !request.isDisposed {
                            let start = request.key % 1_000
                            if step % 7 == 0 {
                                request.fail(.timeout)
                            } else {
                                request.succeed(page(start, 5, total: 1_000))
                            }
                        }
                    default: paginator.loadNextPage()
                    }
                }
            }
            target.sync {}
            let drained = DispatchSemaphore(value: 0)
            QueueScheduler(targeting: target).schedule { drained.signal() }
            drained.wait()
            #expect(offQueue.value == 0, "iteration \(iteration)")
            target.sync { _ = unsynchronisedCount }
        }
    }
}
