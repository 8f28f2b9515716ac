import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Query changes")
struct QueryChangeTests {
    typealias QueryServer = ManualServer<Int, Response, ServerError>

    /// A paginator whose query is added to each offset (query "A" is 0, "B" is 1,000).
    func paginator(_ server: QueryServer, clears: Bool = true) -> Paginator<Int, Int, String, Response, ServerError> {
        Paginator(
            source: .offset { offset, size, query in server.producer(offset + (query == "B" ? 1_000 : 0), size: size) },
            query: "A",
            options: PagingOptions(pageSize: 10, policy: PagingPolicy(clearsOnQueryChange: clears)))
    }

    /// Rows 0..<20 of query A.
    func twoPagesOfA(_ server: QueryServer, _ paginator: Paginator<Int, Int, String, Response, ServerError>) {
        paginator.refresh()
        server.last?.succeed(page(0, 10, total: 100))
        paginator.loadNextPage()
        server.last?.succeed(page(10, 10, total: 100))
    }

    @Test("P42: a query change blanks the list at once, once; the new first page reloads it, or leaves noData")
    func P42_clearsAtOnce() {
        let server = QueryServer()
        let paginator = paginator(server)
        twoPagesOfA(server, paginator)
        let mirror = Mirror(paginator)
        paginator.refresh(query: "B")
        #expect(mirror.changes == [.cleared], "before any answer")
        #expect(paginator.items.value.isEmpty && paginator.state.value == .refreshing)
        server.last?.succeed(Response(items: [], total: 0))
        #expect(paginator.state.value == .noData)
        #expect(mirror.changes == [.cleared], "no second clear")
        paginator.refresh(query: "B")
        #expect(mirror.changes == [.cleared], "the same query does not clear")
        #expect(mirror.failures.isEmpty)
    }

    @Test("P42: cancel() brings back the old rows, query and keys in one update")
    func P42_cancelRestores() {
        let server = QueryServer()
        let paginator = paginator(server)
        twoPagesOfA(server, paginator)
        let mirror = Mirror(paginator)
        paginator.refresh(query: "B")
        paginator.cancel()
        #expect(mirror.changes == [.cleared, .reloaded])
        #expect(Array(paginator.items.value) == Array(0..<20) && paginator.query.value == "A")
        paginator.loadNextPage()
        #expect(server.keys.last == 20, "the next key of A, with A")
        #expect(mirror.failures.isEmpty)
    }

    @Test("P42: a failed first page leaves the list empty; A, B, A quickly clears once and A's old answer never lands")
    func P42_failureAndQuickSwitches() {
        let server = QueryServer()
        let failing = paginator(server)
        twoPagesOfA(server, failing)
        failing.refresh(query: "B")
        server.last?.fail(.unavailable)
        #expect(failing.items.value.isEmpty)
        #expect(failing.presentation.value == .failed(.source(.unavailable)))

        let quickServer = QueryServer()
        let quick = paginator(quickServer)
        twoPagesOfA(quickServer, quick)
        quick.loadNextPage()
        let oldAppend = quickServer.last
        let mirror = Mirror(quick)
        quick.refresh(query: "B")
        quick.refresh(query: "A")
        #expect(mirror.changes == [.cleared])
        oldAppend?.succeed(page(20, 10, total: 100))
        #expect(quick.items.value.isEmpty, "A's old append never lands")
        quickServer.last?.succeed(page(0, 10, total: 100))
        #expect(Array(quick.items.value) == Array(0..<10))
    }

    @Test("without the option a query change keeps the old rows until the new first page")
    func keepsRowsByDefault() {
        let server = QueryServer()
        let paginator = paginator(server, clears: false)
        twoPagesOfA(server, paginator)
        paginator.refresh(query: "B")
        #expect(paginator.items.value.count == 20)
    }
}
