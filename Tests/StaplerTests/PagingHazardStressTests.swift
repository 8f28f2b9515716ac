import Dispatch
import Foundation
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// The paging hazards stressed with real threads (the deterministic recipes are in the suite's main file).
extension PagingHazardTests {

    @Test("P1: 16 threads calling loadNextPage and preload while pages arrive request keys 0, s, 2s… with no repeat")
    func P1_concurrentLoadNextStress() async throws {
        for _ in 0..<3 {
            let server = TestPageSource(Array(0..<1_000_000))  // answers on another thread
            let paginator = Paginator(
                source: server.offset(),
                options: PagingOptions(pageSize: 10, prefetchDistance: 2))
            await paginator.refresh()
            raceFromBarrier(threads: 16) { thread in
                // 200 calls each at least, and on until 30 pages have arrived, so that the calls overlap the
                // answers (200 calls alone end before the first answer).
                var step = 0
                while step < 200 || (paginator.items.value.count < 300 && step < 1_000_000) {
                    if (thread + step) % 2 == 0 {
                        paginator.loadNextPage()
                    } else {
                        paginator.preload(index: paginator.items.value.count - 1 - step % 4)
                    }
                    step += 1
                    if step % 64 == 0 { sched_yield() }
                }
            }
            try await paginator.settled(timeout: .seconds(10))
            let keys = server.requests.map(\.offset)
            #expect(keys.count >= 30, "the racers loaded pages")
            #expect(keys == Array(stride(from: 0, to: keys.count * 10, by: 10)))
            #expect(Array(paginator.items.value) == Array(0..<keys.count * 10))
        }
    }

    @Test("P2: 1,000 races of a stale next page against the refresh's first page: only the new page is ever shown")
    func P2_staleAgainstRefreshStress() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for _ in 0..<1_000 {
            let server = QueryServer()
            let paginator = Self.offsetPaginator(server)
            let items = paginator.items.recordValues()
            paginator.refresh()
            server.last?.succeed(page(0, 10, total: 100))
            paginator.loadNextPage()
            paginator.refresh()
            let (stale, fresh) = (server.requests[1], server.requests[2])
            racers.race { thread in
                if thread == 0 {
                    stale.succeed(page(10, 10, total: 100))
                } else {
                    fresh.succeed(page(0, 10, total: 100, base: 1_000))
                }
            }
            #expect(Array(paginator.items.value) == Array(1_000..<1_010))
            #expect(!items.value.contains { $0.contains(10) }, "the stale page never appeared")
        }
    }

    @Test("P2: 1,000 races of a next page's answer against a refresh: no snapshot of the new generation shows it")
    func P2_staleAgainstRefreshCallStress() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for _ in 0..<1_000 {
            let server = QueryServer()
            let paginator = Self.offsetPaginator(server)
            let snapshots = paginator.snapshot.recordValues()
            paginator.refresh()
            server.last?.succeed(page(0, 10, total: 100))
            paginator.loadNextPage()
            let next = server.requests[1]
            racers.race { thread in
                if thread == 0 {
                    next.succeed(page(10, 10, total: 100))
                } else {
                    paginator.refresh()
                    server.requests[2].succeed(page(0, 10, total: 100, base: 1_000))
                }
            }
            #expect(Array(paginator.items.value) == Array(1_000..<1_010))
            // The refresh may start before or after the next page lands: if after, its `refreshing`
            // snapshot still shows that page (the items stay until the new first page). The new
            // generation itself never applies it.
            let all = snapshots.value
            let appliedBefore = all.contains { $0.generation == 1 && $0.items.contains(10) }
            let newGeneration = all.filter { $0.generation == 2 }
            #expect(newGeneration.allSatisfy { $0.state == .refreshing || Array($0.items) == Array(1_000..<1_010) })
            #expect(newGeneration.allSatisfy { !$0.items.contains(10) || appliedBefore })
            #expect(newGeneration.allSatisfy { $0.pages <= (appliedBefore ? 2 : 1) })
            #expect(illegalMoves(snapshots.value.map(\.state)).isEmpty)
        }
    }

    @Test("P3: 1,000 races of A→B→A answers on three threads: only the last A is ever shown")
    func P3_queryGenerationsStress() {
        let racers = RacingThreads(count: 3)
        defer { racers.stop() }
        for _ in 0..<1_000 {
            let server = QueryServer()
            let paginator = Self.offsetPaginator(server)
            let items = paginator.items.recordValues()
            paginator.refresh(query: "A")
            paginator.refresh(query: "B")
            paginator.refresh(query: "A")
            let requests = server.requests
            racers.race { thread in
                requests[thread].succeed(page(0, 10, total: 10, base: thread * 100))
            }
            #expect(Array(paginator.items.value) == Array(200..<210))
            #expect(items.value.map(Array.init) == [[], Array(200..<210)])
        }
    }

    @Test("P16: 1,000 races of releasing a paginator against its response: freed, load disposed, no late call")
    func P16_releaseAgainstResponseStress() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for iteration in 0..<1_000 {
            let server = QueryServer()
            let box = Locked<OffsetPaginator?>(Self.offsetPaginator(server))
            weak let released = box.value
            let stateEvents = Locked<[String]>([])
            let updateEvents = Locked<[String]>([])
            box.value?.state.signal.observe { stateEvents.append("\($0)") }
            box.value?.updates.observe { updateEvents.append($0.isTerminating ? "\($0)" : "value") }
            if iteration % 2 == 0 {
                box.value?.refresh()
            } else {
                box.value?.refresh()
                server.last?.succeed(page(0, 10, total: 100))
                box.value?.loadNextPage()
            }
            let request = server.last!
            racers.race { thread in
                if thread == 0 {
                    box.value = nil
                } else {
                    request.succeed(page(10, 10, total: 100))
                }
            }
            #expect(released == nil)
            #expect(request.disposeCount == 1)
            // The response may land before, during or after the release; either way each signal ends
            // exactly once, last, and nothing reaches an observer once the race is over.
            let (states, updates) = (stateEvents.value, updateEvents.value)
            for log in [states, updates] {
                #expect(log.last == "completed" && log.filter { $0 == "completed" }.count == 1, "\(log)")
            }
            request.succeed(page(10, 10, total: 100), on: DispatchQueue(label: "late"))
            #expect(stateEvents.value == states && updateEvents.value == updates, "nothing after the release")
        }
    }
}
