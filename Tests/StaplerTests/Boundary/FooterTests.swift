import Reactive
import Stapler
import TestSupport
import Testing

/// The footer a list shows for each way its bottom edge stops: "end" only for a true end.
@Suite("Footers: each stop reason has its footer")
struct FooterTests {
    typealias Server = ManualServer<Int, Page<Int, Int, Void>, ServerError>

    /// A paginator over `server` that deduplicates its integer rows.
    func makePaginator(_ server: Server) -> Paginator<Int, Int, Void, Void, ServerError> {
        Paginator(
            source: PageSource(firstKey: 1) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
    }

    @Test("a server that ignores the offset stops with noProgress, and the footer says unavailable, not end")
    func noProgressShowsUnavailable() {
        let server = Server()
        let paginator = makePaginator(server)
        paginator.refresh()
        server.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        for key in 2...4 {
            paginator.loadNextPage()
            server.last?.succeed(Page(items: Array(0..<10), nextKey: key + 1))
        }
        #expect(paginator.snapshot.value.stopReason == .noProgress(pages: 3))
        guard case .content(let content) = paginator.presentation.value else {
            Issue.record("expected content, got \(paginator.presentation.value)")
            return
        }
        #expect(content.footer == .unavailable(.noProgress(pages: 3)))
        #expect(!PagingError<ServerError>.noProgress(pages: 3).isRetryable)
    }

    @Test("a true end shows end, a repeated key shows unavailable, a retryable failure shows Retry")
    func everyStopReasonHasItsFooter() {
        func footer(_ paginator: Paginator<Int, Int, Void, Void, ServerError>) -> ListFooter<ServerError>? {
            guard case .content(let content) = paginator.presentation.value else { return nil }
            return content.footer
        }
        let ending = Server()
        let ended = makePaginator(ending)
        ended.refresh()
        ending.last?.succeed(Page(items: Array(0..<10), nextKey: nil))
        #expect(ended.snapshot.value.stopReason == .endOfList)
        #expect(footer(ended) == .end)

        let looping = Server()
        let looped = makePaginator(looping)
        looped.refresh()
        looping.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        looped.loadNextPage()
        looping.last?.succeed(Page(items: Array(10..<20), nextKey: 2))
        #expect(looped.snapshot.value.stopReason == .repeatedKey)
        #expect(footer(looped) == .unavailable(.repeatedKey))

        let failing = Server()
        let failed = makePaginator(failing)
        failed.refresh()
        failing.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        failed.loadNextPage()
        failing.last?.fail(.unavailable)
        #expect(failed.snapshot.value.stopReason == .failed(.source(.unavailable)))
        #expect(footer(failed) == .retry(.source(.unavailable)))

        failed.cancel()
        let pending = Server()
        let open = makePaginator(pending)
        open.refresh()
        pending.last?.succeed(Page(items: Array(0..<10), nextKey: 2))
        #expect(open.snapshot.value.stopReason == nil)
        #expect(footer(open) == .loadingRow)
    }
}
