import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@testable import Stapler

/// A numbered page of an `async` backend.
struct NumberedRows: NumberedPageResponse {
    let items: [Int]
    var itemCount: Int? { 1_000 }
}

/// An `async` backend of 1,000 rows that logs the page numbers it is asked for.
final class AsyncRowsBackend: Sendable {
    let requested = Locked<[Int]>([])

    func page(_ number: Int, size: Int) async -> NumberedRows {
        requested.append(number)
        await Task.yield()
        let start = (number - 1) * size
        return NumberedRows(items: Array(start..<min(start + size, 1_000)))
    }

    func paginator(pageSize: Int = 50, deliveringOn scheduler: (any Scheduler)? = nil)
        -> Paginator<Int, PageNumberKey, Void, NumberedRows, Never>
    {
        Paginator(
            source: .pageNumber { number, size, _ async in await self.page(number, size: size) },
            options: PagingOptions(pageSize: pageSize, deliveringOn: scheduler))
    }
}

@Suite("Settled: the engine's own quiescence")
struct SettledTests {
    /// How many times the model's case runs: 2,000 by default; a fifth of `STAPLER_MODEL_SEQUENCES` when
    /// that is set (the sanitizer passes, where each run costs ten times as much).
    static let modelRuns =
        ProcessInfo.processInfo.environment["STAPLER_MODEL_SEQUENCES"].flatMap(Int.init).map { $0 / 5 } ?? 2_000

    @Test(
        "P67: an async source behind a PagingModel: preload the last row then settle, twice, asks for pages 1-3 and shows 150 rows (2,000 runs)"
    )
    @MainActor
    func P67_modelSettlesEveryRun() async {
        var failures = 0
        for _ in 0..<Self.modelRuns {
            let backend = AsyncRowsBackend()
            let model = PagingModel(backend.paginator())
            await model.refresh()
            for _ in 0..<2 {
                model.preload(index: model.items.count - 1)
                await model.settled()
            }
            if backend.requested.value != [1, 2, 3] || model.items.count != 150 { failures += 1 }
        }
        #expect(failures == 0)
    }

    @Test("P67: right after a preload the model still reads idle (its hop has not run); settled() waits past that")
    @MainActor
    func P67_staleIdleDoesNotCount() async {
        let backend = AsyncRowsBackend()
        let model = PagingModel(backend.paginator())
        await model.refresh()
        model.preload(index: 49)
        // The naive check a hand-written helper makes: true, though page 2 is being loaded.
        #expect(model.loadStates.append == .idle(endReached: false) && !model.state.isLoading)
        await model.settled()
        #expect(model.items.count == 100)
        #expect(backend.requested.value == [1, 2])
    }

    @Test("P67: with a delivery scheduler, settled() waits until the publication is delivered there")
    func P67_waitsForTheDeliveryScheduler() async {
        let backend = AsyncRowsBackend()
        let queue = QueueScheduler(label: "delivery")
        let paginator = backend.paginator(deliveringOn: queue)
        let seen = Locked(0)
        paginator.items.signal.observeValues { seen.value = $0.count }
        await paginator.refresh()
        synchronously { paginator.loadNextPage() }
        await paginator.settled()
        #expect(seen.value == 100)
        #expect(paginator.items.value.count == 100)
    }

    @Test("P67: after a call that was ignored, settled() returns in the caller's turn, without suspending")
    @MainActor
    func P67_ignoredReturnsAtOnce() async {
        let backend = AsyncRowsBackend()
        let paginator = backend.paginator(pageSize: 1_000)
        await paginator.refresh()
        // The refresh's outcome is reported while its flush is still ending: wait until it has.
        await paginator.settled()
        #expect(await paginator.loadNextPage() == .ignored(.endReached))
        var otherWorkRan = false
        Task { @MainActor in otherWorkRan = true }
        await paginator.settled()
        #expect(!otherWorkRan)
    }

    @Test("P67: a paginator that never started is settled at once")
    @MainActor
    func P67_neverStarted() async {
        let paginator = AsyncRowsBackend().paginator()
        var otherWorkRan = false
        Task { @MainActor in otherWorkRan = true }
        await paginator.settled()
        #expect(!otherWorkRan)
        #expect(paginator.items.value.isEmpty)
    }

    @Test("P67: a transformed list whose page 2 filters to nothing settles after page 3")
    func P67_filteredPageChain() async {
        let backend = AsyncRowsBackend()
        let paginator = backend.paginator(pageSize: 10)
        let list = paginator.transformed { $0.filter { $0 < 10 || $0 >= 20 } }
        await paginator.refresh()
        list.preload(index: 9)
        await list.settled()
        #expect(backend.requested.value == [1, 2, 3])
        #expect(list.items.value.count == 20)
    }

    @Test("P67: a load nobody answers keeps settled() waiting until its task is cancelled")
    func P67_cancelledWait() async {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10, query: ())
        synchronously { paginator.refresh() }
        let returned = Locked(false)
        let waiting = Task {
            await paginator.settled()
            returned.value = true
        }
        // Until the waiter is registered with the engine (not merely started), so that cancelling it
        // takes it out of the engine's waiters.
        while paginator.engine.state.withLock({ $0.settleWaiters.isEmpty }) { await Task.yield() }
        #expect(!returned.value)
        waiting.cancel()
        await waiting.value
        #expect(returned.value)
        #expect(server.requests.count == 1)
    }

    @Test("P67: an automatic retry is pending work: settled() returns once the retried page is delivered")
    func P67_automaticRetryIsWaitedFor() async {
        let failures = Locked(1)
        let clock = QueueScheduler(label: "retries")
        let paginator = Paginator(
            source: .offset { offset, size, _ async throws(ServerError) -> Response in
                if offset == 10, failures.value > 0 {
                    failures.value -= 1
                    throw .unavailable
                }
                return page(offset, size, total: 30)
            },
            query: (),
            options: PagingOptions(
                pageSize: 10,
                policy: PagingPolicy(autoRetry: AutoRetry(maxRetries: 2, base: .milliseconds(1)), clock: clock)))
        await paginator.refresh()
        synchronously { paginator.loadNextPage() }
        await paginator.settled()
        #expect(paginator.items.value.count == 20)
        #expect(failures.value == 0)
    }

    @Test("P67: 8 tasks settle while 8 others load, on one paginator: every wait ends and the list is whole")
    func P67_racingWaiters() async {
        let backend = AsyncRowsBackend()
        let paginator = backend.paginator(pageSize: 10)
        await paginator.refresh()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    for _ in 0..<20 {
                        if index.isMultiple(of: 2) {
                            synchronously { paginator.loadNextPage() }
                        } else {
                            await paginator.settled()
                        }
                    }
                }
            }
        }
        await paginator.settled()
        let count = paginator.items.value.count
        #expect(count == backend.requested.value.count * 10)
        #expect(paginator.items.value.elementsEqual(0..<count))
    }
}
