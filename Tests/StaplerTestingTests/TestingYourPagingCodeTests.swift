import Reactive
import Stapler
import StaplerTesting
import Testing

// The code of the article "Testing your paging code" (Sources/StaplerTesting/StaplerTesting.docc): each
// test below is one of its examples, and the app code they test is the article's.

/// A post of the app's feed.
struct Post: Sendable, Hashable, Identifiable {
    let id: Int
}

/// One page of the app's `GET /posts?offset=&limit=`.
struct PostsPage: PaginatedResponse {
    let items: [Post]
    let total: Int
}

/// The app's backend.
protocol PostsAPI: Sendable {
    func posts(offset: Int, limit: Int) async throws -> PostsPage
}

/// The app's view model: a feed of posts, 50 a page.
final class FeedViewModel: Sendable {
    let paginator: Paginator<Post, Int, Void, PostsPage, any Error>

    init(api: some PostsAPI) {
        paginator = Paginator(
            source: .offset { offset, size, _ in try await api.posts(offset: offset, limit: size) },
            options: PagingOptions(pageSize: 50, deduplication: .by(\.id)))
    }

    func screenAppeared() { paginator.refresh() }
    func rowAppeared(_ row: Int) { paginator.preload(index: row) }
    func retryTapped() { paginator.retry() }
    func pulledToRefresh() { paginator.refresh(.reloadAll) }
}

/// The backend in tests: the kit's fake server, answering on a later turn as a real one does.
struct FakePostsAPI: PostsAPI {
    let server: TestPageSource<Post, Void>

    func posts(offset: Int, limit: Int) async throws -> PostsPage {
        let page = try await server.loadOffset(offset, size: limit, query: ()).first()
        return PostsPage(items: page.items, total: page.total)
    }
}

/// The app's search errors.
enum SearchError: Error, Equatable {
    case offline
    case rateLimited
}

/// One page of the app's `GET /search?q=&page=`.
struct SearchResults: ExhaustiblePageResponse {
    let posts: [Post]
    let hasMore: Bool

    var items: [Post] { posts }
    var isExhausted: Bool { !hasMore }
}

@Suite("Test kit: the article's examples")
struct TestingYourPagingCodeTests {
    @Test("a view model over an async API: scrolling to the last row loads the next page")
    func viewModelLoadsTheNextPage() async throws {
        let server = TestPageSource((0..<500).map(Post.init))
        let feed = FeedViewModel(api: FakePostsAPI(server: server))
        feed.screenAppeared()
        try await feed.paginator.settled(timeout: .seconds(30))
        feed.rowAppeared(49)
        try await feed.paginator.settled(timeout: .seconds(30))
        #expect(server.requests.map(\.offset) == [0, 50])
        #expect(feed.paginator.items.value.count == 100)
    }

    @Test("a PagingModel: scrolling to row 120 loads pages 1-3")
    @MainActor
    func pagingModelScrollsToRow120() async throws {
        let server = TestPageSource((0..<500).map(Post.init))
        let model = PagingModel(FeedViewModel(api: FakePostsAPI(server: server)).paginator)
        let shown = try await model.paginator.settledRows { try await $0.scroll(to: 120) }
        try await model.settled(timeout: .seconds(30))
        #expect(server.requests.map(\.offset) == [0, 50, 100])
        #expect(shown.items.count == 150)
        #expect(model.items.count == 150)
    }

    @Test("a failed page shows a Retry footer, and Retry asks for the same page")
    func failureAndRetry() async throws {
        let server = TestPageSource((0..<500).map(Post.init), failures: [.atOffset(50)])
        let feed = FeedViewModel(api: FakePostsAPI(server: server))
        let shown = try await feed.paginator.settledRows(onError: .returnShown) { try await $0.scroll(to: 60) }
        #expect(shown.items.count == 50)
        #expect(shown.failures.map(\.direction) == [.append])
        guard case .content(let content) = feed.paginator.presentation.value, case .retry = content.footer else {
            Issue.record("no Retry footer: \(feed.paginator.presentation.value)")
            return
        }
        feed.retryTapped()
        try await feed.paginator.settled(timeout: .seconds(30))
        #expect(server.requests.map(\.offset) == [0, 50, 50])
        #expect(feed.paginator.items.value.count == 100)
    }

    @Test("a refresh keeps the row the user was reading, and its update is a batch a table view can apply")
    func refreshKeepsThePosition() async throws {
        let server = TestPageSource((0..<500).map(Post.init))
        let feed = FeedViewModel(api: FakePostsAPI(server: server))
        let recorder = UpdateRecorder(feed.paginator, id: \.id)
        _ = try await feed.paginator.settledRows { try await $0.scroll(to: 120) }
        server.insertAtTop((1_000..<1_005).map(Post.init))
        feed.pulledToRefresh()
        try await feed.paginator.settled(timeout: .seconds(30))
        #expect(feed.paginator.items.value.firstIndex(of: Post(id: 120)) == 125)
        // The same 150 rows are reloaded: 5 new posts above, the 5 that no longer fit gone below.
        #expect(
            recorder.updates.last?.change
                == .difference(ItemsDifference(removals: Array(145..<150), insertions: Array(0..<5))))
        try recorder.check()
    }

    @Test("a chat opened at its newest messages pages up to the first one")
    func chatPagesUp() async throws {
        let server = TestPageSource((0..<200).map(Post.init), openAt: 180)
        let chat = Paginator(source: server.offset(), pageSize: 20, query: (), initialKey: server.initialOffset)
        let shown = try await chat.settledRows { try await $0.scroll(.up, while: { $0.id > 95 }) }
        #expect(shown.items.first?.id ?? .max <= 95)
        #expect(shown.items.last?.id == 199)
        let all = try await chat.settledRows { try await $0.scroll(to: 0) }
        #expect(all.items.map(\.id) == Array(0..<200))
    }

    @Test("a search typed with the app's own response and error: a list per query, a failure the app names")
    func searchFailsWithTheAppsOwnError() {
        let server = TestPageSource(query: String.self, delivery: .manual) { query in
            query == "cats" ? (0..<30).map(Post.init) : []
        }
        let search = Paginator<Post, Int, String, SearchResults, SearchError>(
            source: .exhaustible { page, size, query in
                server.loadExhaustible(page, size: size, query: query)
                    .map { SearchResults(posts: $0.items, hasMore: !$0.isExhausted) }
                    .mapError(server.appFailures { _ in .offline })
            }, pageSize: 20, query: "cats")
        search.refresh()
        server.answerAll()
        search.loadNextPage()
        server.fail(server.pendingRequests[0], throwing: SearchError.rateLimited)
        #expect(search.state.value == .errorLoadingMore(.source(.rateLimited)))
        search.refresh(query: "dogs")
        server.answerAll()
        #expect(search.state.value == .noData)
    }
}
