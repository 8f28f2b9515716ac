import Reactive
import Stapler
import TestSupport
import Testing

/// `refresh(.reloadAllInParallel(max:))`: every shown page of an offset list at once, bounded, one commit,
/// and the sequential walk when the pages do not line up.
@Suite("Reloading every page in parallel")
final class ParallelReloadTests {
    var mirrors: [Mirror<Int>] = []

    /// Answers `request` from the server's rows `rows`: the rows from its offset, as many as it asks.
    func answer(_ request: TwoEndedServer.Request?, from rows: [Int]) {
        guard let request else {
            Issue.record("no request to answer")
            return
        }
        let start = min(request.key, rows.count)
        let end = min(start + request.size, rows.count)
        request.succeed(Response(items: Array(rows[start..<end]), total: rows.count))
    }

    /// An offset list over `0..<100` showing three pages (rows 0..<30), with a mirror observer.
    func threePages(_ server: TwoEndedServer) -> Paginator<Int, Int, String, Response, ServerError> {
        let paginator = offsetPaginator(server, deduplication: .by { $0 })
        paginator.refresh()
        answer(server.last, from: Array(0..<100))
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer(server.last, from: Array(0..<100))
        }
        #expect(Array(paginator.items.value) == Array(0..<30))
        mirrors.append(Mirror(paginator))
        return paginator
    }

    func mirrored(_ paginator: Paginator<Int, Int, String, Response, ServerError>) {
        let rows = Array(paginator.items.value)
        #expect(Set(rows).count == rows.count, "a row shown twice: \(rows)")
        for mirror in mirrors {
            #expect(mirror.failures.isEmpty, "\(mirror.failures)")
            #expect(mirror.rows == rows)
        }
    }

    @Test("P61: three pages with max 2: two requests at once, then the third, and one commit")
    func boundedAndOneCommit() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        let requests = server.requests.count
        #expect(paginator.refresh(.reloadAllInParallel(max: 2)) == .started)
        #expect(server.pending.map(\.key) == [0, 10])
        #expect(paginator.loadStates.value.refresh == .loading)
        // The server's rows changed: 100 new ones. Answers in any order; the old rows stay until the last.
        let fresh = Array(100..<200)
        answer(server.pending[1], from: fresh)
        #expect(server.pending.map(\.key) == [0, 20], "the third starts as soon as one answered")
        answer(server.pending[1], from: fresh)
        #expect(Array(paginator.items.value) == Array(0..<30))
        answer(server.pending[0], from: fresh)
        #expect(server.requests.count == requests + 3)
        #expect(Array(paginator.items.value) == Array(100..<130))
        #expect(mirrors[0].changes.count == 1, "one commit")
        #expect(paginator.loadNextPage() == .started)
        #expect(server.keys.last == 30)
        mirrored(paginator)
    }

    @Test("P61: rows inserted at the head while the pages load: they do not line up, the sequential walk runs")
    func misalignedFallsBack() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAllInParallel(max: 3))
        let pending = server.pending
        #expect(pending.map(\.key) == [0, 10, 20])
        answer(pending[0], from: Array(0..<100))
        // Two rows arrive at the head: page 2 now starts with a row page 1 holds.
        let moved = [-2, -1] + Array(0..<100)
        answer(pending[1], from: moved)
        answer(pending[2], from: moved)
        #expect(Array(paginator.items.value) == Array(0..<30), "nothing of the misaligned pages is shown")
        #expect(server.pending.map(\.key) == [0], "the walk starts at the page the list was opened at")
        for _ in 0..<3 { answer(server.pending.first, from: moved) }
        #expect(Array(paginator.items.value) == Array(-2..<28))
        #expect(mirrors[0].changes.count == 1)
        mirrored(paginator)
    }

    @Test("P61: the same total, but a page starts with a row the page before holds: the sequential walk runs")
    func overlapWithTheSameTotal() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAllInParallel(max: 3))
        let pending = server.pending
        answer(pending[0], from: Array(0..<100))
        // Two rows arrive at the head and two leave the tail: the total stays 100.
        let moved = [-2, -1] + Array(0..<98)
        answer(pending[1], from: moved)
        answer(pending[2], from: moved)
        #expect(server.pending.map(\.key) == [0], "the pages did not line up")
        for _ in 0..<3 { answer(server.pending.first, from: moved) }
        #expect(Array(paginator.items.value) == Array(-2..<28))
        mirrored(paginator)
    }

    @Test("P61: a source whose keys need the page before (a cursor API) reloads one page at a time")
    func cursorsReloadInTurn() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 0) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        func answer() {
            guard let request = server.pending.first else {
                Issue.record("no request to answer")
                return
            }
            let end = request.key + 10
            request.succeed(Page(items: Array(request.key..<end), previousKey: nil, nextKey: end < 30 ? end : nil))
        }
        paginator.refresh()
        answer()
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer()
        }
        paginator.refresh(.reloadAllInParallel(max: 3))
        for key in [0, 10, 20] {
            #expect(server.pending.map(\.key) == [key])
            answer()
        }
        #expect(Array(paginator.items.value) == Array(0..<30))
    }

    @Test("P61: a failed page leaves the rows; retry() reloads the pages one at a time")
    func failureThenSequentialRetry() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAllInParallel(max: 3))
        let pending = server.pending
        answer(pending[0], from: Array(0..<100))
        pending[1].fail(.unavailable)
        #expect(pending[2].isDisposed, "the other requests go with the failure")
        #expect(paginator.loadStates.value.refresh == .failed(.source(.unavailable)))
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(paginator.retry() == .started)
        for key in [0, 10, 20] {
            #expect(server.pending.map(\.key) == [key])
            answer(server.pending.first, from: Array(5..<100))
        }
        #expect(Array(paginator.items.value) == Array(5..<35))
        mirrored(paginator)
    }

    @Test("P61: a newer refresh disposes every request of the batch, and none is applied")
    func supersededBatch() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAllInParallel(max: 3))
        let batch = server.pending
        paginator.refresh()
        #expect(batch.allSatisfy { $0.isDisposed })
        for request in batch { answer(request, from: Array(50..<100)) }
        #expect(Array(paginator.items.value) == Array(0..<30))
        answer(server.pending.first, from: Array(0..<100))
        #expect(Array(paginator.items.value) == Array(0..<10))
        mirrored(paginator)
    }

    @Test("P61: a deletion that leaves fewer pages: the walk ends the list where the server does")
    func shrunkList() {
        let server = TwoEndedServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAllInParallel(max: 3))
        let rows = Array(0..<15)
        for request in server.pending { answer(request, from: rows) }
        #expect(server.pending.map(\.key) == [0], "an empty third page does not line up: the walk runs")
        answer(server.pending.first, from: rows)
        answer(server.pending.first, from: rows)
        #expect(server.pending.isEmpty, "the walk stops at the end the server names")
        #expect(Array(paginator.items.value) == rows)
        mirrored(paginator)
    }

    @Test("a parallel reload with max below 1 traps, naming max")
    func zeroMaxTraps() async {
        await #expect(processExitsWith: .failure) {
            let server = TwoEndedServer()
            let paginator = offsetPaginator(server)
            paginator.refresh(.reloadAllInParallel(max: 0))
        }
    }
}
