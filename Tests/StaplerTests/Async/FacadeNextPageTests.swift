import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// The facade's `async` next page decides as `loadNextPageIfNeeded()` does, by the engine's state at the
/// moment it acts, never by a published state that lags behind it.
@Suite("The facade's async next page")
struct FacadeNextPageTests {
    typealias Outcome = LoadOutcome<ServerError>

    /// A facade over `server` whose notifications wait for `scheduler`, with its first page (0..<10 of
    /// 30) loaded and delivered.
    func loadedStapler(_ server: OffsetServer, on scheduler: TestScheduler) -> Stapler<Response, ServerError> {
        let stapler = Stapler<Response, ServerError>(pageSize: 10, deliveringOn: scheduler) { offset, size in
            server.producer(offset, size: size)
        }
        synchronously { stapler.paginator.refresh() }
        server.last?.succeed(page(0, 10, total: 30))
        scheduler.run()
        return stapler
    }

    /// Runs the facade's `async` next page in a task, and waits until it returned or the server has more
    /// than `requests` requests.
    func call(
        _ stapler: Stapler<Response, ServerError>, _ server: OffsetServer, beyond requests: Int
    ) async -> Task<Outcome, Never> {
        let returned = Locked(false)
        let task = Task {
            let outcome = await stapler.loadNextPage()
            returned.value = true
            return outcome
        }
        #expect(await eventuallyPolling { returned.value || server.requests.count > requests })
        return task
    }

    @Test("after a later page failed, the async next page asks for it again even before the failure is delivered")
    func retriesAFailureNotYetDelivered() async {
        let server = OffsetServer()
        let scheduler = TestScheduler()
        let stapler = loadedStapler(server, on: scheduler)
        stapler.loadNextPageIfNeeded()
        server.last?.fail(.timeout)
        #expect(stapler.paginator.state.value == .data, "the failure waits for the delivery scheduler")
        let next = await call(stapler, server, beyond: 2)
        #expect(server.keys == [0, 10, 10], "the failed page is asked again, as loadNextPageIfNeeded() would")
        server.last?.succeed(page(10, 10, total: 30))
        scheduler.run()
        #expect(await value(of: next) == .loaded)
        #expect(Array(stapler.items.value) == Array(0..<20) && stapler.paginator.state.value == .data)
    }

    @Test("after a refresh failed, the async next page starts nothing even while a later page's failure is shown")
    func failedRefreshNotYetDelivered() async {
        let server = OffsetServer()
        let scheduler = TestScheduler()
        let stapler = loadedStapler(server, on: scheduler)
        stapler.loadNextPageIfNeeded()
        server.last?.fail(.timeout)
        scheduler.run()
        synchronously { stapler.paginator.refresh() }
        server.last?.fail(.unavailable)
        #expect(
            stapler.paginator.state.value == .errorLoadingMore(.source(.timeout)),
            "the refresh and its failure wait for the delivery scheduler")
        let next = await call(stapler, server, beyond: 3)
        #expect(server.keys == [0, 10, 0], "after a failed refresh only a refresh pages again")
        server.last?.fail(.unavailable)
        scheduler.run()
        #expect(await value(of: next) == .ignored(.awaitingRetry))
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10, 0], "the synchronous call agrees")
        #expect(stapler.paginator.state.value == .errorRefreshing(.source(.unavailable)))
    }

    @Test(
        "tasks awaiting the next page and threads calling loadNextPageIfNeeded() together load each page once, one load at a time"
    )
    func concurrentCallers() async {
        let (total, failing): (Int, Set<Int>) = (600, [70, 150, 220, 430])
        let source = AnsweringSource(total: total, failingOnce: failing)
        let stapler = Stapler<Response, ServerError>(pageSize: 10) { offset, size in source.producer(offset, size) }
        synchronously { stapler.paginator.refresh() }
        #expect(await eventuallyPolling { stapler.items.value.count == 10 })
        let outcomes = Locked<[Outcome]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100_000 {
                        let outcome = await stapler.loadNextPage()
                        outcomes.append(outcome)
                        if outcome == .ignored(.endReached) { return }
                        if case .ignored = outcome { try? await Task.sleep(nanoseconds: 50_000) }
                    }
                }
            }
            group.addTask {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        raceFromBarrier(threads: 2) { _ in
                            for _ in 0..<200_000 where !stapler.paginator.isEndReached.value {
                                stapler.loadNextPageIfNeeded()
                                Thread.sleep(forTimeInterval: 0.000_05)
                            }
                        }
                        finished.resume()
                    }
                }
            }
        }
        let expectedOffsets = stride(from: 0, to: total, by: 10).flatMap { failing.contains($0) ? [$0, $0] : [$0] }
        #expect(source.requested == expectedOffsets, "each page once, a failed page again, in order")
        #expect(source.mostInFlight == 1)
        #expect(Array(stapler.items.value) == Array(0..<total))
        let allowed: [Outcome] = [
            .loaded, .failed(.source(.timeout)), .ignored(.alreadyLoading), .ignored(.endReached),
        ]
        let history = outcomes.value
        #expect(history.allSatisfy(allowed.contains), "\(history.filter { !allowed.contains($0) })")
        let loaded = history.count { $0 == .loaded }
        #expect(loaded <= total / 10 - 1 && history.count { $0 == .failed(.source(.timeout)) } <= failing.count)
        #expect(history.count { $0 == .ignored(.endReached) } == 4, "each task saw the end")
    }
}

/// A source that answers every request on another thread after a moment, failing the first request
/// of each offset in `failingOnce`; it records the offsets asked for and how many loads ran at once.
final class AnsweringSource: Sendable {
    private let state = Locked((inFlight: 0, mostInFlight: 0, requested: [Int](), failed: Set<Int>()))
    private let total: Int
    private let failingOnce: Set<Int>

    init(total: Int, failingOnce: Set<Int>) {
        self.total = total
        self.failingOnce = failingOnce
    }

    /// The offsets requested, in order.
    var requested: [Int] { state.value.requested }

    /// The most loads that were running at once.
    var mostInFlight: Int { state.value.mostInFlight }

    func producer(_ offset: Int, _ size: Int) -> SignalProducer<Response, ServerError> {
        SignalProducer { [state, total, failingOnce] observer, _ in
            let fails = state.withLock { state in
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                state.requested.append(offset)
                return failingOnce.contains(offset) && state.failed.insert(offset).inserted
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(300)) {
                state.withLock { $0.inFlight -= 1 }
                if fails {
                    observer.send(error: .timeout)
                } else {
                    observer.send(value: page(offset, min(size, total - offset), total: total))
                    observer.sendCompleted()
                }
            }
        }
    }
}
