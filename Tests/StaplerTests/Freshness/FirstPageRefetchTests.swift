import Reactive
import Stapler
import TestSupport
import Testing

/// `refresh(.firstPage)` over a cursor API: the page at the top of a feed is refetched and merged by
/// identity, with the duplicates and gaps a partial refetch of a cursor list is known for.
@Suite("Refetching the first page")
final class FirstPageRefetchTests {
    /// A cursor server: the key is the id the page continues below (`Int.max` for the newest page).
    typealias Server = ManualServer<Int, Page<Int, Int, Void>, ServerError>
    var mirrors: [Mirror<Int>] = []

    /// Answers `request` from the server's rows `rows` (newest first, descending ids): the ten rows below
    /// its cursor, and the last of them as the next cursor.
    func answer(_ request: Server.Request?, from rows: [Int]) {
        guard let request else {
            Issue.record("no request to answer")
            return
        }
        let below = rows.filter { $0 < request.key }
        let page = Array(below.prefix(10))
        let more = below.count > page.count
        request.succeed(Page(items: page, previousKey: nil, nextKey: more ? page.last : nil))
    }

    /// A feed showing ids 30...1 in three pages, newest first, with a mirror observer.
    func feed(_ server: Server) -> Paginator<Int, Int, Void, Void, ServerError> {
        let paginator = Paginator(
            source: PageSource(firstKey: Int.max) { request in server.producer(request.key) },
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

    /// Every update applied to the rows before it gives the rows after it, and no id is shown twice.
    func mirrored(_ paginator: Paginator<Int, Int, Void, Void, ServerError>) {
        let rows = Array(paginator.items.value)
        #expect(Set(rows).count == rows.count, "a row shown twice: \(rows)")
        for mirror in mirrors {
            #expect(mirror.failures.isEmpty, "\(mirror.failures)")
            #expect(mirror.rows == rows)
        }
    }

    @Test("P61: no change on the server: one request for the newest page, the same rows")
    func unchanged() {
        let server = Server()
        let paginator = feed(server)
        let requests = server.requests.count
        #expect(paginator.refresh(.firstPage) == .started)
        #expect(paginator.loadStates.value.refresh == .loading)
        #expect(server.keys.last == Int.max)
        answer(server.last, from: Array((1...30).reversed()))
        #expect(server.requests.count == requests + 1)
        #expect(Array(paginator.items.value) == Array((1...30).reversed()))
        #expect(paginator.loadStates.value.refresh != .loading)
        #expect(mirrors[0].changes.allSatisfy { $0.isEmptyDifference }, "\(mirrors[0].changes)")
        mirrored(paginator)
    }

    @Test("P61: a deleted row goes and the row at the seam is not doubled (TanStack#4128)")
    func deletedRow() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.firstPage)
        answer(server.last, from: Array((1...30).reversed()).filter { $0 != 25 })
        #expect(Array(paginator.items.value) == Array((1...30).reversed()).filter { $0 != 25 })
        #expect(paginator.items.value.count == 29)
        mirrored(paginator)
    }

    @Test("P61: three new rows at the top are inserted at once, and the rows they push down stay")
    func newRows() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.firstPage)
        answer(server.last, from: Array((1...33).reversed()))
        #expect(Array(paginator.items.value) == Array((1...33).reversed()))
        #expect(mirrors[0].changes.count == 1)
        // The next page goes on below the rows shown, by the cursor of the bottom page.
        #expect(paginator.loadNextPage() == .ignored(.endReached))
        mirrored(paginator)
    }

    @Test("P61: after a refetch of the first page, reloading every page starts at the top")
    func reloadAllAfterFirstPage() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.firstPage)
        let rows = Array((1...33).reversed())
        answer(server.last, from: rows)
        paginator.refresh(.reloadAll)
        #expect(server.keys.last == Int.max, "the newest page first")
        while let request = server.pending.first { answer(request, from: rows) }
        #expect(Array(paginator.items.value) == rows)
        mirrored(paginator)
    }

    @Test("P61: more than a page of new rows: one follow-on page meets the rows shown (2 requests)")
    func followsOn() {
        let server = Server()
        let paginator = feed(server)
        let requests = server.requests.count
        paginator.refresh(.firstPage)
        let rows = Array((1...45).reversed())
        answer(server.last, from: rows)
        #expect(server.keys.last == 36, "the follow-on page continues below the fresh page")
        #expect(paginator.items.value.count == 30, "nothing shown before the pages meet")
        answer(server.last, from: rows)
        #expect(server.requests.count == requests + 2)
        #expect(Array(paginator.items.value) == rows)
        mirrored(paginator)
    }

    @Test("P61: fresh pages that never meet the rows shown replace them, so no gap hides (catchUp: 2)")
    func replacesBeyondCatchUp() {
        let server = Server()
        let paginator = feed(server)
        let requests = server.requests.count
        paginator.refresh(.firstPage(catchUp: 2))
        let rows = Array((1...80).reversed())
        for _ in 0..<3 { answer(server.last, from: rows) }
        #expect(server.requests.count == requests + 3)
        #expect(Array(paginator.items.value) == Array((51...80).reversed()), "not 80...51 above 30...1")
        #expect(paginator.loadNextPage() == .started)
        #expect(server.keys.last == 51)
        mirrored(paginator)
    }

    @Test("P61: rows inserted and deleted at once near the top: every row once, in the server's order")
    func insertedAndDeleted() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.firstPage)
        let rows = Array((1...34).reversed()).filter { ![33, 28, 27].contains($0) }
        answer(server.last, from: rows)
        #expect(Array(paginator.items.value) == rows)
        mirrored(paginator)
    }

    @Test("P61: a refetch supersedes a next page in flight, whose answer is never applied")
    func supersedesNextPage() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.restart)
        answer(server.last, from: Array((1...30).reversed()))
        paginator.loadNextPage()
        let append = server.last
        paginator.refresh(.firstPage)
        #expect(append?.isDisposed == true)
        answer(server.last, from: Array((1...31).reversed()))
        // 21, below the last fresh row shown (22), stays: the fresh page does not prove it gone.
        #expect(Array(paginator.items.value) == Array((21...31).reversed()))
    }

    @Test("P61: a failed refetch keeps the rows; retry() asks the same page and merges")
    func failureKeepsRows() {
        let server = Server()
        let paginator = feed(server)
        paginator.refresh(.firstPage)
        server.last?.fail(ServerError.unavailable)
        #expect(Array(paginator.items.value) == Array((1...30).reversed()))
        #expect(paginator.retry() == .started)
        #expect(server.keys.last == Int.max)
        answer(server.last, from: Array((1...31).reversed()))
        #expect(Array(paginator.items.value) == Array((1...31).reversed()))
        mirrored(paginator)
    }

    @Test("P61: loading the next page never refetches the pages loaded (1 request)")
    func nextPageDoesNotRevalidate() {
        let server = Server()
        let paginator = Paginator(
            source: PageSource(firstKey: Int.max) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        let rows = Array((1...40).reversed())
        paginator.refresh()
        answer(server.last, from: rows)
        for _ in 0..<2 {
            paginator.loadNextPage()
            answer(server.last, from: rows)
        }
        let requests = server.requests.count
        #expect(paginator.loadNextPage() == .started)
        #expect(server.requests.count == requests + 1)
    }

    @Test("P61: a chat opened at its newest page and paged older refetches its newest page, at the bottom")
    func chatRefetchesItsNewestPage() {
        let server = Server()
        // The key is the first id of the page, `Int.max` for the ten newest; ids ascend down the list.
        func answer(_ request: Server.Request?, count: Int) {
            guard let request else {
                Issue.record("no request to answer")
                return
            }
            let start = request.key == Int.max ? max(0, count - 10) : request.key
            let end = min(start + 10, count)
            request.succeed(
                Page(
                    items: Array(start..<end), previousKey: start == 0 ? nil : max(0, start - 10),
                    nextKey: end < count ? end : nil))
        }
        let chat = Paginator(
            source: PageSource(firstKey: Int.max) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        chat.refresh()
        answer(server.last, count: 40)
        chat.loadPreviousPage()
        answer(server.last, count: 40)
        #expect(Array(chat.items.value) == Array(20..<40))
        let mirror = Mirror(chat)
        let requests = server.requests.count
        chat.refresh(.firstPage)
        #expect(server.keys.last == Int.max, "the newest page, by its stored key")
        answer(server.last, count: 43)
        #expect(server.requests.count == requests + 1)
        #expect(Array(chat.items.value) == Array(20..<43), "the older rows stay above the fresh page")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
        #expect(mirror.rows == Array(chat.items.value))
    }

    @Test("without rows to merge with, it loads the first page as a restart")
    func beforeTheFirstPage() {
        let server = Server()
        let paginator = Paginator(
            source: PageSource(firstKey: Int.max) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        #expect(paginator.refresh(.firstPage) == .started)
        answer(server.last, from: Array((1...30).reversed()))
        #expect(Array(paginator.items.value) == Array((21...30).reversed()))
    }

    @Test("a negative catch-up count traps, naming catchUp")
    func negativeCatchUpTraps() async {
        await #expect(processExitsWith: .failure) {
            let paginator = Paginator(
                source: PageSource(firstKey: 0) { _ in SignalProducer<Page<Int, Int, Void>, ServerError>.never },
                options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
            paginator.refresh(.firstPage(catchUp: -1))
        }
    }
}

extension ItemsChange {
    /// Whether the change moves, inserts, removes and updates nothing.
    var isEmptyDifference: Bool {
        guard case .difference(let difference) = self else { return false }
        return difference.insertions.isEmpty && difference.removals.isEmpty && difference.moves.isEmpty
            && difference.updates.isEmpty
    }
}
