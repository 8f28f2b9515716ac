import Reactive
import Stapler
import TestSupport
import Testing

/// `PagingOptions(initialPages:)`: several pages up front, in one request where a larger limit keeps its
/// meaning, in parallel over page numbers, one after another elsewhere.
@Suite("Loading several pages up front")
final class InitialPagesTests {
    struct NumberedPage: NumberedPageResponse {
        let items: [Int]
        let pageCount: Int?
    }

    struct CursorResponse: CursorPageResponse {
        let items: [Int]
        let nextCursor: Int?
        var previousCursor: Int? { nil }
    }

    /// Answers an offset request from a server over `0..<total`, with at most `limit` rows.
    func answer(_ request: TwoEndedServer.Request?, total: Int = 200, limit: Int? = nil) {
        guard let request else {
            Issue.record("no request to answer")
            return
        }
        let end = min(request.key + min(request.size, limit ?? request.size), total)
        request.succeed(Response(items: Array(request.key..<end), total: total))
    }

    @Test("P66: offsets: one request for three pages, one update, and the next page starts after them")
    func offsetsInOneRequest() {
        let server = TwoEndedServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 10, initialPages: 3))
        let updates = Locked(0)
        paginator.updates.observeValues { _ in updates.increment(by: 1) }
        paginator.refresh()
        #expect(server.requests.map { [$0.key, $0.size] } == [[0, 30]])
        answer(server.last)
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(updates.value == 1)
        #expect(paginator.loadNextPage() == .started)
        #expect(server.requests.map { [$0.key, $0.size] } == [[0, 30], [30, 10]])
    }

    @Test("P66: offsets: fewer rows than asked: the next offset counts what came, and the end is not reached")
    func offsetsCountWhatCame() {
        let server = TwoEndedServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 10, initialPages: 3))
        paginator.refresh()
        answer(server.last, limit: 28)
        #expect(paginator.items.value.count == 28)
        #expect(!paginator.isEndReached.value)
        paginator.loadNextPage()
        #expect(server.keys.last == 28)
    }

    typealias NumberedServer = ManualServer<Int, NumberedPage, ServerError>

    func numbered(_ server: NumberedServer) -> Paginator<Int, PageNumberKey, Void, NumberedPage, ServerError> {
        Paginator(
            source: .pageNumber { page, size, _ in server.producer(page, size: size) },
            options: PagingOptions(pageSize: 10, initialPages: 3, maxConcurrentRequests: 3))
    }

    /// Answers page `page` (from 1) of a list of 20 pages of ten rows.
    func answer(_ server: NumberedServer, page: Int) {
        guard let request = server.pending.first(where: { $0.key == page }) else {
            Issue.record("no request for page \(page)")
            return
        }
        request.succeed(NumberedPage(items: Array((page - 1) * 10..<page * 10), pageCount: 20))
    }

    @Test("P66: page numbers: three requests of the normal size at once, one update after the last answer")
    func pageNumbersInParallel() {
        let server = NumberedServer()
        let paginator = numbered(server)
        let updates = Locked(0)
        paginator.updates.observeValues { _ in updates.increment(by: 1) }
        paginator.refresh()
        #expect(server.requests.map { [$0.key, $0.size] } == [[1, 10], [2, 10], [3, 10]], "never per_page 30")
        answer(server, page: 3)
        answer(server, page: 1)
        #expect(paginator.items.value.isEmpty)
        answer(server, page: 2)
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(updates.value == 1)
        paginator.loadNextPage()
        #expect(server.keys.last == 4)
    }

    @Test("P66: page 2 fails: page 1 is published, and page 2 is a failed next page that retry() asks again")
    func partialFailure() {
        let server = NumberedServer()
        let paginator = numbered(server)
        paginator.refresh()
        let third = server.requests[2]
        answer(server, page: 1)
        server.pending.first { $0.key == 2 }?.fail(.unavailable)
        #expect(third.isDisposed)
        #expect(Array(paginator.items.value) == Array(0..<10))
        #expect(paginator.loadStates.value.append == .failed(.source(.unavailable)))
        #expect(paginator.loadStates.value.refresh != .loading)
        #expect(paginator.retry() == .started)
        #expect(server.keys.last == 2)
        answer(server, page: 2)
        #expect(paginator.loadNextPage() == .started)
        #expect(server.keys.last == 3)
        answer(server, page: 3)
        #expect(Array(paginator.items.value) == Array(0..<30))
    }

    @Test("P66: a refresh during the load up front disposes all three requests, and none is applied")
    func refreshSupersedes() {
        let server = NumberedServer()
        let paginator = numbered(server)
        paginator.refresh()
        let first = server.requests
        paginator.refresh()
        #expect(first.allSatisfy { $0.isDisposed })
        for request in first {
            request.succeed(NumberedPage(items: [999], pageCount: 20))
        }
        #expect(paginator.items.value.isEmpty)
        for page in 1...3 { answer(server, page: page) }
        #expect(Array(paginator.items.value) == Array(0..<30))
    }

    @Test("P66: a cursor API without a limit loads the three pages one after another, then shows them")
    func cursorWithoutLimitInTurn() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 0) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, initialPages: 3))
        paginator.refresh()
        for key in [0, 10, 20] {
            #expect(server.pending.map(\.key) == [key])
            #expect(paginator.items.value.isEmpty)
            server.pending.first?.succeed(Page(items: Array(key..<key + 10), previousKey: nil, nextKey: key + 10))
        }
        #expect(Array(paginator.items.value) == Array(0..<30))
        paginator.loadNextPage()
        #expect(server.keys.last == 30)
    }

    @Test("P66: a cursor API with a limit: one request for three pages, the next key from the response")
    func cursorWithLimitInOneRequest() {
        let server = ManualServer<Int?, CursorResponse, ServerError>()
        let paginator = Paginator(
            source: .cursor { cursor, size, _ in server.producer(cursor, size: size) },
            options: PagingOptions(pageSize: 10, initialPages: 3))
        paginator.refresh()
        #expect(server.requests.map(\.size) == [30])
        server.last?.succeed(CursorResponse(items: Array(0..<30), nextCursor: 30))
        #expect(Array(paginator.items.value) == Array(0..<30))
        paginator.loadNextPage()
        #expect(server.keys.last == 30)
        #expect(server.last?.size == 10)
    }

    @Test("P66: one after another, page 2 fails: page 1 is published, and retry() asks page 2 again")
    func partialFailureInTurn() {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: 0) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, initialPages: 3))
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), previousKey: nil, nextKey: 10))
        server.last?.fail(.timeout)
        #expect(Array(paginator.items.value) == Array(0..<10))
        #expect(paginator.loadStates.value.append == .failed(.source(.timeout)))
        #expect(paginator.retry() == .started)
        #expect(server.keys == [0, 10, 10])
    }

    @Test("P66: racing threads answer the pages up front in any order while another refreshes")
    func racingAnswersAndRefreshes() {
        let racers = RacingThreads(count: 4)
        defer { racers.stop() }
        for iteration in 0..<stressRounds(1_000) {
            // The server's key is the page plus 1,000 times the version the request was made in.
            let server = NumberedServer()
            let version = Locked(0)
            let paginator = Paginator(
                source: .pageNumber { page, size, _ in server.producer(page + version.value * 1_000, size: size) },
                options: PagingOptions(pageSize: 10, initialPages: 3, maxConcurrentRequests: 3))
            let bad = Locked<[[Int]]>([])
            let versions = Locked<[Int]>([])
            paginator.updates.observeValues { update in
                let rows = Array(update.items)
                guard let first = rows.first else { return }
                let stamp = first / 100_000
                versions.append(stamp)
                if rows != Array(stamp * 100_000..<stamp * 100_000 + rows.count) || rows.count % 10 != 0 {
                    bad.append(rows)
                }
            }
            paginator.refresh()
            racers.race { thread in
                for step in 0..<6 {
                    if thread == 3 {
                        if step % 3 == 1 {
                            version.increment(by: 1)
                            paginator.refresh()
                        }
                    } else {
                        let pending = server.pending
                        guard !pending.isEmpty else { continue }
                        let request = pending[(thread + step) % pending.count]
                        let (stamp, page) = (request.key / 1_000, request.key % 1_000)
                        let start = stamp * 100_000 + (page - 1) * 10
                        request.succeed(NumberedPage(items: Array(start..<start + 10), pageCount: 20))
                    }
                }
            }
            #expect(bad.value.isEmpty, "iteration \(iteration): not a run of pages from page 1: \(bad.value)")
            #expect(versions.value == versions.value.sorted(), "iteration \(iteration): a superseded answer applied")
        }
    }

    @Test("initialPages below 1 traps, naming initialPages")
    func zeroInitialPagesTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = offsetPaginatorWithInitialPages(0)
        }
    }

    @Test("maxConcurrentRequests below 1 traps, naming maxConcurrentRequests")
    func zeroConcurrentRequestsTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Paginator(
                source: .offset { offset, size, _ in TwoEndedServer().producer(offset, size: size) },
                options: PagingOptions<Int, Int>(pageSize: 10, maxConcurrentRequests: 0))
        }
    }
}

/// An offset paginator loading `pages` pages up front.
func offsetPaginatorWithInitialPages(_ pages: Int) -> Paginator<Int, Int, Void, Response, ServerError> {
    Paginator(
        source: .offset { offset, size, _ in TwoEndedServer().producer(offset, size: size) },
        options: PagingOptions(pageSize: 10, initialPages: pages))
}
