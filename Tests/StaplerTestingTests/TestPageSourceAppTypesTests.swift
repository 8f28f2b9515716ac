import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// An app's own error type, as a seed system's network layer has one.
private enum AppError: Error, Equatable {
    case offline
    case api(code: Int)
    case testKit(TestSourceError)
}

/// An app's own response type, built from the fake's.
private struct SearchPage: ExhaustiblePageResponse {
    let results: [String]
    let hasNextPage: Bool

    var items: [String] { results }
    var isExhausted: Bool { !hasNextPage }
}

/// A search paginator over `server`, typed with the app's response and error: unknown keys and injected
/// failures keep the fake's error, so a test sees which it was.
private func searchPaginator(
    _ server: TestPageSource<String, String>
) -> Paginator<String, Int, String, SearchPage, AppError> {
    Paginator(
        source: .exhaustible { index, size, query in
            server.loadExhaustible(index, size: size, query: query)
                .map { SearchPage(results: $0.items, hasNextPage: !$0.isExhausted) }
                .mapError(server.appFailures { .testKit($0) })
        }, pageSize: 2, query: "")
}

@Suite("Test kit: the app's own types")
struct TestPageSourceAppTypesTests {
    @Test("a fake with a list per query cuts each answer from its request's query's list, read at the answer")
    func listPerQuery() {
        let suffix = Locked("")
        let server = TestPageSource(query: String.self, delivery: .manual) { query in
            query.isEmpty ? [] : (1...3).map { "\(query)\($0)\(suffix.value)" }
        }
        let paginator = searchPaginator(server)
        paginator.refresh(query: "a")
        suffix.value = "!"
        server.answerAll()
        #expect(Array(paginator.items.value) == ["a1!", "a2!"], "the list as it is when the answer is made")
        paginator.loadNextPage()
        server.answerAll()
        #expect(Array(paginator.items.value) == ["a1!", "a2!", "a3!"])
        #expect(paginator.isEndReached.value)
        paginator.refresh(query: "")
        server.answerAll()
        #expect(paginator.state.value == .noData, "the empty query's list is empty")
        paginator.refresh(query: "b")
        server.answerAll()
        #expect(Array(paginator.items.value) == ["b1!", "b2!"])
        #expect(server.items == ["b1!", "b2!", "b3!"], "the list of the last answer")
        #expect(server.requests.map(\.query) == ["a", "a", "", "b"])
    }

    @Test("fail(_:throwing:) fails a parked request with the app's own error, which the paginator reports")
    func failWithTheAppsError() {
        let server = TestPageSource(["x", "y", "z"], query: String.self, delivery: .manual)
        let paginator = searchPaginator(server)
        paginator.refresh()
        server.fail(server.pendingRequests[0], throwing: AppError.api(code: 503))
        #expect(paginator.state.value == .errorRefreshing(.source(.api(code: 503))))
        paginator.retry()
        server.answerAll()
        paginator.loadNextPage()
        server.fail(server.pendingRequests[0], throwing: AppError.offline)
        #expect(paginator.state.value == .errorLoadingMore(.source(.offline)))
        server.fail(server.requests[0], throwing: AppError.offline)
        #expect(paginator.state.value == .errorLoadingMore(.source(.offline)), "a request no longer pending is ignored")
        #expect(Array(paginator.items.value) == ["x", "y"])
    }

    @Test("failures the test gave no app error (injected, unknown keys) reach the app's error through the fallback")
    func fallbackForOtherFailures() {
        let server = TestPageSource(
            ["x", "y", "z"], query: String.self, delivery: .synchronous, failures: [.atRequest(2)])
        let paginator = searchPaginator(server)
        paginator.refresh()
        paginator.loadNextPage()
        #expect(paginator.state.value == .errorLoadingMore(.source(.testKit(.injected(key: "1", request: 2)))))
        let error = server.appFailure(.rejected(.unknownKey("9"))) { AppError.testKit($0) }
        #expect(error == .testKit(.rejected(.unknownKey("9"))))
        #expect(server.appFailure(.injected(key: "1", request: 2)) { _ in AppError.offline } == .offline)
    }

    @Test("an app error of another type than the mapping's takes the fallback")
    func appErrorOfAnotherType() {
        struct OtherError: Error {}
        let server = TestPageSource(["x"], query: String.self, delivery: .manual)
        let paginator = searchPaginator(server)
        paginator.refresh()
        server.fail(server.pendingRequests[0], throwing: OtherError())
        #expect(paginator.state.value == .errorRefreshing(.source(.testKit(.injected(key: "0", request: 1)))))
    }

    @Test("loadAll(query:) answers the whole list in one request, for an app's own single-load source")
    func loadAll() {
        let server = TestPageSource(lists: [["a", "b", "c"], []], delivery: .synchronous, failures: [.atRequest(2)])
        let paginator = Paginator<String, Int, Void, Void, AppError>(
            source: .singleLoad { query in server.loadAll(query: query).mapError(server.appFailures { _ in .offline }) }
        )
        paginator.refresh()
        #expect(Array(paginator.items.value) == ["a", "b", "c"])
        paginator.refresh()
        #expect(paginator.state.value == .errorRefreshing(.source(.offline)))
        paginator.retry()
        #expect(paginator.state.value == .noData)
        #expect(server.requests.map(\.key) == ["all", "all", "all"])
    }
}
