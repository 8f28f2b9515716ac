import Dispatch
import Foundation
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Memory bound: dropping pages and reloading them")
struct MemoryBoundTests {
    typealias States = LoadStates<ServerError>

    @Test("P29: pages go at the end far from the row shown, in the same update, never inside its window")
    func P29_dropsTheFarEnd() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, prefetchDistance: 5, maxPages: 3)
        let mirror = Mirror(paginator)
        paginator.refresh()
        answer(server.last, total: 200)
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer(server.last, total: 200)
        }
        #expect(Array(paginator.items.value) == Array(0..<30))
        paginator.preload(index: 25)
        #expect(server.keys.last == 30)
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(10..<40))
        #expect(
            mirror.changes.last
                == .difference(ItemsDifference(removals: Array(0..<10), insertions: Array(20..<30))),
            "one update removes the top page and appends")
        #expect(paginator.loadStates.value.prepend == .idle(endReached: false), "the dropped top reopens")

        paginator.preload(index: 2)
        #expect(server.keys.last == 0, "the dropped page reloads with its own key")
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(0..<30), "the bottom page 30-39 goes, not 10-19")
        #expect(paginator.loadStates.value.append == .idle(endReached: false))

        paginator.preload(index: 29)
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(10..<40))
        paginator.preload(index: 2)
        let prepend = try! #require(server.last)
        #expect(prepend.key == 0)
        paginator.preload(index: 29)
        #expect(server.keys.last == 40)
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(20..<50), "the top page 10-19 goes")
        #expect(prepend.disposeCount == 1, "a load in flight at the dropped end is disposed")
        answer(prepend, total: 200)
        #expect(Array(paginator.items.value) == Array(20..<50), "its late answer is never applied")
        #expect(paginator.loadStates.value.prepend == .idle(endReached: false))
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P29: at the smallest bound, the page loaded for the row shown stays: no drop-reload loop")
    func P29_noDropReloadLoopAtTheSmallestBound() {
        let server = TestPageSource(Array(0..<40), delivery: .synchronous)
        let paginator = Paginator(
            source: server.offset(),
            options: PagingOptions(pageSize: 16, prefetchDistance: 8, maxPages: 2))
        paginator.refresh()
        paginator.loadNextPage()
        for _ in 0..<5 { paginator.preload(index: 23) }
        #expect(server.requests.map(\.offset) == [0, 16, 32], "each preload of row 23 would reload a dropped page")
        #expect(Array(paginator.items.value) == Array(0..<40))
        #expect(paginator.pages.value == 3, "one page over the bound while a drop would reload at once")
        paginator.preload(index: 39)
        #expect(paginator.pages.value == 2, "the row moved on: the top page goes")
        #expect(Array(paginator.items.value) == Array(16..<40))
        #expect(server.requests.map(\.offset) == [0, 16, 32])
    }

    @Test("P29: a bound that cannot hold one page and both prefetch windows traps, naming maxPages")
    func P29_tooSmallBoundTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in SignalProducer<Response, ServerError>.never },
                options: PagingOptions(pageSize: 10, prefetchDistance: 8, maxPages: 2))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("maxPages"))
    }

    @Test("P29: a random scroll walk over a synchronous server keeps at most 3 pages and every row near the one shown")
    func P29_randomScrollWalk() {
        let total = 1_000
        let server = TestPageSource(Array(0..<total), openAt: 500, delivery: .synchronous)
        let paginator = Paginator(
            source: server.offset(), initialKey: server.initialOffset,
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        let mirror = Mirror(paginator)
        paginator.refresh()
        var generator = SplitMix(seed: 29)
        var cursor = 500
        let steps = 10_000
        for step in 0..<steps {
            guard showRows(cursor..<cursor + 5, of: paginator, step: step) else { return }
            let after = Array(paginator.items.value)
            #expect(paginator.pages.value <= 3)
            #expect(after == Array(after[0]...after[after.count - 1]), "ids stay consecutive")
            let shown = cursor + 4
            let window = max(shown - 5, 0)...min(shown + 5, total - 1)
            #expect(window.allSatisfy(after.contains), "step \(step): a row near the one shown was dropped")
            cursor = min(max(cursor + Int.random(in: -3...3, using: &generator), 0), total - 5)
        }
        #expect(server.requestCount <= steps, "no drop-reload loop: \(server.requestCount) requests in \(steps) steps")
        #expect(mirror.failures.isEmpty, "\(mirror.failures.prefix(3))")
    }

    @Test("P29: the walk with answers from 2 threads: the bound holds once quiet, ids consecutive and unique")
    func P29_randomScrollWalkWithThreads() {
        let total = 1_000
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 500, prefetchDistance: 5, maxPages: 3)
        let mirror = Mirror(paginator)
        paginator.refresh()
        answer(server.last, total: total)
        let stop = Locked(false)
        // The answering threads wait while the walk shows a step's rows: a user interface reads its
        // indices from the snapshot it was delivered, never from one a page lands in meanwhile.
        let showing = NSLock()
        let answered = DispatchGroup()
        for _ in 0..<2 {
            answered.enter()
            Thread.detachNewThread {
                while !stop.value {
                    let pending = server.pending
                    if pending.isEmpty { usleep(50) }
                    showing.lock()
                    for request in pending.shuffled() where !request.isDisposed { answer(request, total: total) }
                    showing.unlock()
                }
                answered.leave()
            }
        }
        var generator = SplitMix(seed: 2_929)
        var cursor = 500
        for step in 0..<2_000 {
            showing.lock()
            let shown = showRows(cursor..<cursor + 5, of: paginator, step: step)
            showing.unlock()
            guard shown else { break }
            // Quiet: nothing pending, and the publication of the last answer staged (its load states too).
            while !server.pending.isEmpty || paginator.loadStates.value.append == .loading
                || paginator.loadStates.value.prepend == .loading
            {
                usleep(20)
            }
            #expect(paginator.pages.value <= 4, "the bound, and the one page it may keep while the row is near it")
            cursor = min(max(cursor + Int.random(in: -3...3, using: &generator), 0), total - 5)
        }
        stop.value = true
        answered.wait()
        let items = Array(paginator.items.value)
        #expect(paginator.pages.value <= 4)
        #expect(items == Array(items[0]...items[items.count - 1]))
        #expect(mirror.failures.isEmpty, "\(mirror.failures.prefix(3))")
    }

    @Test("P30: a plain offset + total server: dropped pages reload with their stored offsets, in both directions")
    func P30_reloadsWithStoredKeys() {
        let server = TwoEndedServer()
        var ids = Array(0..<100)
        // The server caps every page at 7 rows, whatever the page size asks.
        func serve(_ request: TwoEndedServer.Request?) {
            guard let request else {
                Issue.record("no request to answer")
                return
            }
            let rows = Array(ids[request.key..<min(request.key + 7, ids.count)])
            request.succeed(Response(items: rows, total: ids.count))
        }
        let paginator = offsetPaginator(server, deduplication: .by { $0 }, maxPages: 2)
        let mirror = Mirror(paginator)
        paginator.refresh()
        serve(server.last)
        for _ in 0..<4 {
            paginator.preload(index: paginator.items.value.count - 1)
            serve(server.last)
        }
        #expect(server.keys == [0, 7, 14, 21, 28])
        #expect(Array(paginator.items.value) == Array(21..<35), "pages 0, 7 and 14 were dropped")

        paginator.preload(index: 0)
        #expect(server.keys.last == 14, "the stored offset, not 18 and not 11")
        serve(server.last)
        #expect(Array(paginator.items.value) == Array(14..<28), "page 28 is dropped")
        #expect(paginator.loadStates.value.append == .idle(endReached: false), "its key is kept for the bottom")

        ids.insert(1_000, at: 10)
        paginator.preload(index: 0)
        let failing = try! #require(server.last)
        #expect(failing.key == 7)
        failing.fail(.unavailable)
        #expect(paginator.loadStates.value.prepend == .failed(.source(.unavailable)))
        for _ in 0..<10 { paginator.preload(index: 0) }
        #expect(server.requests.count == 7, "no request while the failure stands")
        paginator.retry()
        #expect(server.requests.count == 8)
        #expect(server.keys.last == 7, "retry asks for the stored key once more")
        serve(server.last)
        let items = Array(paginator.items.value)
        #expect(items.prefix(4) == [7, 8, 9, 1_000], "the shifted rows land at the top")
        #expect(Set(items).count == items.count, "ids stay unique")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")

        paginator.preload(index: items.count - 1)
        #expect(server.keys.last == 21, "the bottom reloads page 21 with its stored offset")
    }

    @Test("P29: with a bound, a negative index requests nothing, even once pages landed above the list shown")
    func P29_negativeIndexRequestsNothing() {
        // Found by the model-based test (seed 495): with a bound every preload goes to the engine, which
        // moved a negative index down by the rows prepended since the snapshot shown, into the list.
        let server = TwoEndedServer()
        let scheduler = TestScheduler()
        let paginator = offsetPaginator(
            server, pageSize: 5, initialKey: 10, prefetchDistance: 2, deliveringOn: scheduler, maxPages: 3)
        paginator.refresh()
        answer(server.last, total: 23)
        scheduler.run()
        paginator.preload(index: 0)
        #expect(server.keys == [10, 5])
        // Rows 5-9 land above, not shown yet: the snapshot shown still starts at row 10.
        answer(server.last, total: 23)
        for index in [-3, -4, -1] { paginator.preload(index: index) }
        #expect(server.keys == [10, 5], "a negative index is never a row shown")
        scheduler.run()
        #expect(Array(paginator.items.value) == Array(5..<15))
        paginator.preload(index: 0)
        #expect(server.keys == [10, 5, 0], "row 0 of the list shown still loads the page above")
    }

    @Test("P29: a page kept over the bound at a failed end stays until the failure is retried")
    func P29_failedEndKeepsItsPage() {
        // Found by the model-based test: a preload that moved the row on dropped the page kept over the
        // bound at the failed bottom, which cleared the failure: errorLoadingMore -> data, a move the
        // state machine does not have (a precondition failure in checked builds).
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, pageSize: 5, prefetchDistance: 2, maxPages: 2)
        let moves = Locked<[String]>([])
        let previous = Locked(paginator.state.value)
        paginator.state.signal.observeValues { state in
            let from = previous.withLock { value in
                defer { value = state }
                return value
            }
            if from.name != state.name, !from.canMove(to: state) { moves.append("\(from.name) -> \(state.name)") }
        }
        paginator.refresh()
        answer(server.last, total: 23)
        paginator.loadNextPage()
        answer(server.last, total: 23)
        paginator.preload(index: 7)
        answer(server.last, total: 23)
        #expect(paginator.pages.value == 3, "row 7 keeps the top page over the bound")
        paginator.loadNextPage()
        server.last?.fail(.unavailable)
        #expect(paginator.state.value.name == "errorLoadingMore")

        paginator.preload(index: 2)
        #expect(paginator.pages.value == 3, "the failed bottom keeps its page")
        #expect(paginator.state.value.name == "errorLoadingMore")
        #expect(paginator.loadStates.value.append == .failed(.source(.unavailable)))
        #expect(server.keys == [0, 5, 10, 15])
        paginator.retry()
        #expect(server.keys == [0, 5, 10, 15, 15], "retry asks for the failed key again")
        answer(server.last, total: 23)
        #expect(paginator.pages.value <= 3)
        #expect(Array(paginator.items.value.prefix(5)) == Array(0..<5), "the rows around row 2 stay")
        #expect(moves.value.isEmpty, "\(moves.value)")
    }

    /// Shows the rows with ids `visible`: calls `preload(index:)` for each, at its index in the latest
    /// snapshot (a list's indices move when a page lands above). Records an issue and returns false if
    /// one of them is not loaded.
    func showRows(_ visible: Range<Int>, of paginator: Paginator<Int, Int, some Any, some Any, some Error>, step: Int)
        -> Bool
    {
        for id in visible {
            let items = paginator.items.value
            guard let first = items.first, items.contains(id) else {
                Issue.record("step \(step): row \(id) is not loaded (\(items.first ?? -1)...\(items.last ?? -1))")
                return false
            }
            paginator.preload(index: id - first)
        }
        return true
    }
}
