import Reactive
import Stapler
import TestSupport
import Testing

/// The catch-up merge at the top of a feed shown newest first: the rule of the "first page only" refetch
/// (remove only what the fresh page proves gone; follow on for a few pages, then replace).
@Suite("Catching up the top of a feed")
final class FeedCatchUpTests {
    typealias Server = ManualServer<Int, Page<Int, Int, Void>, ServerError>
    var mirrors: [Mirror<Int>] = []

    /// Answers `request` from the server's list `rows` (newest first): the key is an offset into it.
    func answer(_ request: Server.Request?, from rows: [Int]) {
        guard let request else {
            Issue.record("no request to answer")
            return
        }
        let end = min(request.key + 10, rows.count)
        request.succeed(
            Page(
                items: Array(rows[min(request.key, end)..<end]),
                previousKey: request.key == 0 ? nil : max(0, request.key - 10), nextKey: end < rows.count ? end : nil))
    }

    /// A feed showing ids 30...1 in three pages, newest first, with a mirror observer that applies every
    /// update's change to its own copy (checked by ``mirrored(_:)``).
    func feed(_ server: Server) -> Paginator<Int, Int, Void, Void, ServerError> {
        let paginator = Paginator(
            source: PageSource(firstKey: 0) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        let rows = Array((1...30).reversed())
        paginator.refresh()
        answer(server.last, from: rows)
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer(server.last, from: rows)
        }
        #expect(Array(paginator.items.value) == rows)
        mirrors.append(Mirror(paginator))
        return paginator
    }

    /// Every update the feed published so far applied to the rows before it gives the rows after it.
    func mirrored(_ paginator: Paginator<Int, Int, Void, Void, ServerError>) {
        for mirror in mirrors {
            #expect(mirror.failures.isEmpty, "\(mirror.failures)")
            #expect(mirror.rows == Array(paginator.items.value))
        }
    }

    @Test("P61: no change on the server: one request, the same rows")
    func unchanged() {
        let server = Server()
        let paginator = feed(server)
        let requests = server.requests.count
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...30).reversed()))
        #expect(server.requests.count == requests + 1)
        #expect(Array(paginator.items.value) == Array((1...30).reversed()))
        mirrored(paginator)
    }

    @Test("P61: a row deleted on the first page goes, and the row at the seam is not doubled")
    func deletedRow() {
        let server = Server()
        let paginator = feed(server)
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...30).reversed()).filter { $0 != 25 })
        #expect(Array(paginator.items.value) == Array((1...30).reversed()).filter { $0 != 25 })
        mirrored(paginator)
    }

    @Test("P61: new rows at the top are inserted; more than a page of them is followed on, then merged")
    func newRows() {
        let server = Server()
        let paginator = feed(server)
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...33).reversed()))
        #expect(Array(paginator.items.value) == Array((1...33).reversed()))

        let requests = server.requests.count
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...45).reversed()))
        answer(server.last, from: Array((1...45).reversed()))
        #expect(server.requests.count == requests + 2)
        #expect(Array(paginator.items.value) == Array((1...45).reversed()))
        mirrored(paginator)
    }

    @Test("P61: fresh pages that never meet the rows shown replace them: no gap hides between the two")
    func replacesBeyondCatchUp() {
        let server = Server()
        let paginator = feed(server)
        paginator.catchUp(at: .top, maxPages: 2)
        answer(server.last, from: Array((1...80).reversed()))
        answer(server.last, from: Array((1...80).reversed()))
        #expect(Array(paginator.items.value) == Array((61...80).reversed()), "not 80...61 above 30...1")
        #expect(paginator.loadNextPage() == .started)
        #expect(server.keys.last == 20)
        mirrored(paginator)
    }

    @Test("a local post at the top stays above the fresh rows until the server returns it")
    func localPostAtTheTop() {
        let server = Server()
        let paginator = feed(server)
        paginator.insert(contentsOf: [31], at: .top)
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...30).reversed()))
        #expect(Array(paginator.items.value) == Array((1...31).reversed()))
        paginator.catchUp(at: .top)
        answer(server.last, from: Array((1...32).reversed()))
        #expect(Array(paginator.items.value) == Array((1...32).reversed()), "31 shown once, where the server put it")
        mirrored(paginator)
    }
}
