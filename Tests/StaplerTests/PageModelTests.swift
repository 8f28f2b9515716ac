import Reactive
import Stapler
import TestSupport
import Testing

/// Every page model: the exact keys it requests, the rule that ends its list, and its `async` form;
/// and the three ways to deduplicate.
@Suite("Page models")
struct PageModelTests {
    // MARK: Responses

    struct NumberedPage: NumberedPageResponse {
        let items: [Int]
        let pageCount: Int?
        let itemCount: Int?
    }

    /// What a numbered backend reports besides its items.
    enum Counts: String, CaseIterable, Sendable {
        case pageCount, itemCount, neither
    }

    /// Pages `paginator` to its end, answering through `answer`, at most `limit` pages.
    static func pageToEnd<Key, Query, Metadata>(
        _ paginator: Paginator<Int, Key, Query, Metadata, ServerError>, limit: Int = 10, answer: () -> Void
    ) {
        paginator.refresh()
        answer()
        for _ in 1..<limit where !paginator.isEndReached.value {
            paginator.loadNextPage()
            answer()
        }
    }

    /// Refreshes `paginator`, then loads pages until the end, waiting for each `async` load; false on timeout.
    ///
    /// Each wait is for the page just asked for to be published, not only for a state that is not loading:
    /// while another thread (the previous load's task) is still publishing, the state read right after
    /// `loadNextPage()` can be the previous page's `.data`, and asking again then would be a no-op.
    static func pageToEnd<Key, Query, Metadata>(
        _ paginator: Paginator<Int, Key, Query, Metadata, ServerError>, limit: Int = 10
    ) async -> Bool {
        synchronously { paginator.refresh() }
        for page in 1...limit {
            let settled = await eventually {
                let state = paginator.state.value
                return !state.isLoading && state != .uninitialized && (paginator.pages.value >= page || state != .data)
            }
            guard settled else { return false }
            guard paginator.state.value == .data, !paginator.isEndReached.value else { return true }
            synchronously { paginator.loadNextPage() }
        }
        return false
    }

    // MARK: Offset + total

    @Test("offset + total: each key is the previous one plus the count sent; the list ends at the total")
    func offset() {
        let server = ManualServer<Call<Int, String>, Response, ServerError>()
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer(Call(offset, query), size: size) }, pageSize: 10,
            query: "q")
        Self.pageToEnd(paginator) {
            let offset = server.last!.key.key
            server.last?.succeed(page(offset, offset == 10 ? 8 : min(10, 25 - offset), total: 25))
        }
        #expect(server.keys == [Call(0, "q"), Call(10, "q"), Call(18, "q")])
        #expect(server.requests.map(\.size) == [10, 10, 10])
        #expect(Array(paginator.items.value) == Array(0..<25))
        #expect(paginator.isEndReached.value && paginator.total.value == 25 && paginator.pages.value == 3)
        paginator.loadNextPage()
        #expect(server.keys.count == 3)
    }

    @Test("offset + total: an empty page ends the list whatever the total says")
    func offsetEmptyPage() {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
        Self.pageToEnd(paginator) {
            let offset = server.last!.key
            server.last?.succeed(offset < 20 ? page(offset, 10, total: 1_000) : Response(items: [], total: 1_000))
        }
        #expect(server.keys == [0, 10, 20])
        #expect(paginator.isEndReached.value && paginator.items.value.count == 20)
    }

    @Test("offset + total, async: the same keys and the same end")
    func offsetAsync() async {
        let calls = Locked<[Int]>([])
        let paginator = Paginator(
            source: .offset { offset, size, _ async throws(ServerError) -> Response in
                calls.append(offset)
                return page(offset, min(size, 25 - offset), total: 25)
            }, pageSize: 10)
        #expect(await Self.pageToEnd(paginator))
        #expect(calls.value == [0, 10, 20])
        #expect(Array(paginator.items.value) == Array(0..<25))
        #expect(paginator.isEndReached.value)
    }

    // MARK: Page number

    static let numberedCases = [0, 1].flatMap { first in Counts.allCases.map { (first, $0) } }

    @Test(
        "page number: keys count from the first page; the page count, the item count or an empty page ends the list",
        arguments: numberedCases)
    func pageNumber(firstPage: Int, counts: Counts) {
        let server = ManualServer<Call<Int, String>, NumberedPage, ServerError>()
        let paginator = Paginator(
            source: .pageNumber(firstPage: firstPage) { number, size, query in
                server.producer(Call(number, query), size: size)
            }, pageSize: 10, query: "q")
        Self.pageToEnd(paginator) {
            let index = server.last!.key.key - firstPage
            let items = index < 3 ? Array(index * 10..<index * 10 + 10) : []
            server.last?.succeed(
                NumberedPage(
                    items: items, pageCount: counts == .pageCount ? 3 : nil, itemCount: counts == .itemCount ? 30 : nil)
            )
        }
        let pages = counts == .neither ? 4 : 3
        #expect(server.keys == (0..<pages).map { Call(firstPage + $0, "q") })
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(paginator.isEndReached.value)
        #expect(paginator.total.value == (counts == .itemCount ? 30 : nil))
        #expect(paginator.metadata.value?.items.count == (counts == .neither ? 0 : 10), "the response is the metadata")
    }

    @Test("page number with no counts: a short page does not end the list (a server may cap its pages)")
    func pageNumberShortPage() {
        let server = ManualServer<Int, NumberedPage, ServerError>()
        let paginator = Paginator(
            source: .pageNumber(firstPage: 1) { number, size, _ in server.producer(number, size: size) }, pageSize: 10)
        Self.pageToEnd(paginator) {
            let number = server.last!.key
            let items = number <= 3 ? Array((number - 1) * 7..<number * 7) : []
            server.last?.succeed(NumberedPage(items: items, pageCount: nil, itemCount: nil))
        }
        #expect(server.keys == [1, 2, 3, 4])
        #expect(Array(paginator.items.value) == Array(0..<21))
    }

    @Test("page number, async: the same keys and the same end", arguments: [0, 1])
    func pageNumberAsync(firstPage: Int) async {
        let calls = Locked<[Int]>([])
        let paginator = Paginator(
            source: .pageNumber(firstPage: firstPage) { number, size, _ async throws(ServerError) -> NumberedPage in
                calls.append(number)
                let index = number - firstPage
                return NumberedPage(items: Array(index * size..<index * size + size), pageCount: 3, itemCount: nil)
            }, pageSize: 5)
        #expect(await Self.pageToEnd(paginator))
        #expect(calls.value == [firstPage, firstPage + 1, firstPage + 2])
        #expect(Array(paginator.items.value) == Array(0..<15))
    }

    // MARK: Cursor

    @Test("cursor: the first page has no cursor, each next one is the page's; no next cursor ends the list")
    func cursor() {
        let server = ManualServer<Call<String?, String>, CursorPage, ServerError>()
        let paginator = Paginator(
            source: .cursor { cursor, size, query in server.producer(Call(cursor, query), size: size) }, pageSize: 2,
            query: "q")
        let next = ["b", "c", nil]
        Self.pageToEnd(paginator) {
            let index = server.requests.count - 1
            server.last?.succeed(CursorPage(items: [index * 2, index * 2 + 1], nextCursor: next[index]))
        }
        #expect(server.keys == [Call(nil, "q"), Call("b", "q"), Call("c", "q")])
        #expect(Array(paginator.items.value) == Array(0..<6))
        #expect(paginator.isEndReached.value)
        #expect(paginator.total.value == nil)
    }

    @Test("cursor: an empty page ends the list even with a next cursor")
    func cursorEmptyPage() {
        let server = ManualServer<String?, CursorPage, ServerError>()
        let paginator = Paginator(
            source: .cursor { cursor, size, _ in server.producer(cursor, size: size) }, pageSize: 2)
        Self.pageToEnd(paginator) {
            let first = server.requests.count == 1
            server.last?.succeed(CursorPage(items: first ? [1, 2] : [], nextCursor: first ? "b" : "c"))
        }
        #expect(server.keys == [nil, "b"])
        #expect(paginator.isEndReached.value)
    }

    @Test("cursor, async: the same keys and the same end")
    func cursorAsync() async {
        let calls = Locked<[String?]>([])
        let next: [String?: String?] = [nil: "b", "b": "c", "c": nil]
        let paginator = Paginator(
            source: .cursor { cursor, _, _ async throws(ServerError) -> CursorPage in
                calls.append(cursor)
                return CursorPage(items: [calls.value.count], nextCursor: next[cursor] ?? nil)
            }, pageSize: 1)
        #expect(await Self.pageToEnd(paginator))
        #expect(calls.value == [nil, "b", "c"])
        #expect(Array(paginator.items.value) == [1, 2, 3])
    }

    // MARK: Exhaustible

    @Test("exhaustible: a counter from 0 for every generation; the exhausted page ends the list")
    func exhaustible() {
        let server = ManualServer<Call<Int, String>, FlaggedPage, ServerError>()
        let paginator = Paginator(
            source: .exhaustible { index, size, query in server.producer(Call(index, query), size: size) },
            pageSize: 2, query: "q")
        Self.pageToEnd(paginator) {
            let index = server.last!.key.key
            server.last?.succeed(FlaggedPage(items: [index * 2, index * 2 + 1], isExhausted: index == 2))
        }
        paginator.refresh(query: "r")
        #expect(server.keys == [Call(0, "q"), Call(1, "q"), Call(2, "q"), Call(0, "r")])
        #expect(Array(paginator.items.value) == Array(0..<6))
    }

    @Test("exhaustible: an empty page ends the list even if it is not flagged")
    func exhaustibleEmptyPage() {
        let server = ManualServer<Int, FlaggedPage, ServerError>()
        let paginator = Paginator(
            source: .exhaustible { index, size, _ in server.producer(index, size: size) }, pageSize: 2)
        Self.pageToEnd(paginator) {
            let index = server.last!.key
            server.last?.succeed(FlaggedPage(items: index == 0 ? [1, 2] : [], isExhausted: false))
        }
        #expect(server.keys == [0, 1])
        #expect(paginator.isEndReached.value && paginator.state.value == .data)
    }

    @Test("exhaustible, async: the same keys and the same end")
    func exhaustibleAsync() async {
        let calls = Locked<[Int]>([])
        let paginator = Paginator(
            source: .exhaustible { index, _, _ async throws(ServerError) -> FlaggedPage in
                calls.append(index)
                return FlaggedPage(items: [index], isExhausted: index == 3)
            }, pageSize: 1)
        #expect(await Self.pageToEnd(paginator))
        #expect(calls.value == [0, 1, 2, 3])
        #expect(Array(paginator.items.value) == [0, 1, 2, 3])
    }

    // MARK: Single load

    @Test("single load: one request per generation gives every item; the list ends there")
    func singleLoad() {
        let server = ManualServer<String, [Int], ServerError>()
        let paginator = Paginator(source: .singleLoad { query in server.producer(query) }, pageSize: 10, query: "q")
        Self.pageToEnd(paginator) { server.last?.succeed(Array(0..<25)) }
        for row in 0..<25 { paginator.preload(index: row) }
        #expect(server.keys == ["q"])
        #expect(Array(paginator.items.value) == Array(0..<25))
        #expect(paginator.isEndReached.value && paginator.total.value == 25 && paginator.pages.value == 1)
        paginator.refresh(query: "r")
        server.last?.succeed([])
        #expect(server.keys == ["q", "r"])
        #expect(paginator.state.value == .noData)
    }

    @Test("single load, async: one request, the list ends there")
    func singleLoadAsync() async {
        let calls = Locked(0)
        let paginator = Paginator(
            source: .singleLoad { _ async throws(ServerError) -> [Int] in
                calls.increment(by: 1)
                return [7, 8, 9]
            }, pageSize: 2)
        #expect(await Self.pageToEnd(paginator))
        #expect(calls.value == 1)
        #expect(Array(paginator.items.value) == [7, 8, 9])
    }

    // MARK: A model of one's own

    @Test("a source of one's own sees the key, size, query and page index of every request")
    func customSource() {
        let server = ManualServer<PageRequest<String, String>, Page<Int, String, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource(firstKey: "start") { request in server.producer(request) }, pageSize: 3, query: "q")
        paginator.refresh()
        server.last?.succeed(Page(items: [1, 2, 3], nextKey: "after-3"))
        paginator.loadNextPage()
        server.last?.succeed(Page(items: [4, 5, 6], nextKey: "after-6"))
        paginator.loadNextPage()
        paginator.refresh(query: "r")
        #expect(
            server.keys == [
                PageRequest(key: "start", pageSize: 3, query: "q", pageIndex: 0),
                PageRequest(key: "after-3", pageSize: 3, query: "q", pageIndex: 1),
                PageRequest(key: "after-6", pageSize: 3, query: "q", pageIndex: 2),
                PageRequest(key: "start", pageSize: 3, query: "r", pageIndex: 0),
            ])
    }

    @Test("a source of one's own, async: its errors become source errors of the page that failed")
    func customSourceAsync() async {
        let paginator = Paginator(
            source: PageSource(firstKey: 0) { (request: PageRequest<Int, Void>) async throws(ServerError) in
                guard request.key == 0 else { throw .timeout }
                return Page(items: [1, 2], nextKey: 2)
            }, pageSize: 2)
        let errors = paginator.errorsAfterFirstPage.record()
        #expect(await Self.pageToEnd(paginator))
        #expect(paginator.state.value == .errorLoadingMore(.source(.timeout)))
        // The state is visible to this thread as soon as the change is staged; the error event of the
        // same change is delivered right after, on the thread that answered.
        #expect(await eventually { errors.values == [.source(.timeout)] })
        #expect(Array(paginator.items.value) == [1, 2])
    }

    @Test("an async load superseded by a refresh has its task cancelled")
    func asyncCancellation() async {
        let cancelled = Locked(0)
        let calls = Locked(0)
        let paginator = Paginator(
            source: .exhaustible { _, _, _ async throws(ServerError) -> FlaggedPage in
                // Each call waits until both have started, then the superseded one (its task was cancelled
                // before the second refresh started) fails and the other answers. Neither the order the
                // calls start in nor which one sees its cancellation first decides anything: on a loaded
                // machine the second refresh's task can run first (deciding by the order of the calls made
                // that one wait for ever).
                calls.increment(by: 1)
                while calls.value < 2 && !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
                guard Task.isCancelled else { return FlaggedPage(items: [9], isExhausted: true) }
                cancelled.increment(by: 1)
                throw .timeout
            }, pageSize: 1)
        synchronously { paginator.refresh() }
        synchronously { paginator.refresh() }
        #expect(await eventually { cancelled.value == 1 && paginator.state.value == .data })
        #expect(Array(paginator.items.value) == [9])
    }

    // MARK: Deduplication

    struct Post: Equatable, Sendable, Identifiable {
        let id: Int
        let version: Int
    }

    static let deduplications: [String: Deduplication<Post>] = [
        "key path": .by(\Post.id), "closure": .by { (post: Post) in post.id }, "byID": .byID,
    ]

    @Test(
        "deduplication drops items already loaded, keeps the first copy, and the next key counts what was sent",
        arguments: ["key path", "closure", "byID"])
    func deduplication(kind: String) {
        let deduplication = Self.deduplications[kind]!
        let server = ManualServer<Int, [Post], ServerError>()
        let paginator = Paginator(
            source: PageSource<Post, Int, Void, Void, ServerError>(firstKey: 0) { request in
                server.producer(request.key).map { posts in Page(items: posts, nextKey: request.key + posts.count) }
            }, options: PagingOptions(pageSize: 4, deduplication: deduplication))
        let changes = paginator.recordChanges()
        paginator.refresh()
        server.last?.succeed([1, 2, 3].map { Post(id: $0, version: 1) })
        paginator.loadNextPage()
        server.last?.succeed([3, 4, 4, 5].map { Post(id: $0, version: 2) })
        paginator.loadNextPage()
        #expect(server.keys == [0, 3, 7])
        #expect(paginator.items.value.map(\.id) == [1, 2, 3, 4, 5])
        #expect(paginator.items.value.map(\.version) == [1, 1, 1, 2, 2])
        #expect(
            changes.value == [
                .reloaded([1, 2, 3].map { Post(id: $0, version: 1) }),
                .appended([4, 5].map { Post(id: $0, version: 2) }, at: 3..<5),
            ])
    }

    @Test("a closure deduplication identifies items by whatever it returns")
    func deduplicationByClosure() {
        let server = ManualServer<Int, [String], ServerError>()
        let paginator = Paginator(
            source: PageSource<String, Int, Void, Void, ServerError>(firstKey: 0) { request in
                server.producer(request.key).map { names in Page(items: names, nextKey: request.key + names.count) }
            }, options: PagingOptions(pageSize: 3, deduplication: .by { $0.lowercased() }))
        paginator.refresh()
        server.last?.succeed(["Ann", "bob", "ANN"])
        paginator.loadNextPage()
        server.last?.succeed(["Bob", "cid"])
        #expect(Array(paginator.items.value) == ["Ann", "bob", "cid"])
        #expect(server.keys == [0, 3])
    }
}
