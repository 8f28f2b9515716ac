import Reactive
import TestSupport
import Testing

@testable import Stapler

/// Page sources over services that answer through a completion handler: every page model in one line,
/// the first call of a completion wins, a late call is dropped, and a call may come from any thread.
@Suite("Completion-handler bridge")
struct CompletionBridgeTests {
    struct NumberedResponse: NumberedPageResponse {
        let items: [Int]
        let pageCount: Int?
    }

    // MARK: One factory per page model

    @Test("offset(completion:) pages a completion-handler service to its total, answered on other threads")
    func offset() {
        let service = CompletionService<Int, Response>()
        let paginator = Paginator(
            source: .offset { offset, _, _, completion in service.load(offset, completion: completion) }, pageSize: 10)
        let states = paginator.state.recordValues()
        let items = paginator.items.recordValues()
        paginator.refresh()
        service.answerOnAnotherThread(.success(page(0, 10, total: 25)))
        paginator.loadNextPage()
        service.answerOnAnotherThread(.success(page(10, 10, total: 25)))
        paginator.loadNextPage()
        service.answerOnAnotherThread(.success(page(20, 5, total: 25)))
        paginator.loadNextPage()
        #expect(service.keys == [0, 10, 20])
        #expect(states.value == [.uninitialized, .refreshing, .data, .loadingMore, .data, .loadingMore, .data])
        #expect(items.value.map(Array.init) == [[], Array(0..<10), Array(0..<20), Array(0..<25)])
        #expect(paginator.isEndReached.value && paginator.total.value == 25)
    }

    @Test("pageNumber(firstPage:completion:) adapts a service written before Swift concurrency in one line")
    func pageNumber() {
        let service = LegacyPageService()
        let paginator = Paginator(
            source: .pageNumber { page, _, _, completion in service.loadPage(page, completion: completion) },
            pageSize: 2)
        let states = paginator.state.recordValues()
        paginator.refresh()
        service.answer(.success(NumberedResponse(items: [1, 2], pageCount: 2)))
        paginator.loadNextPage()
        service.answer(.success(NumberedResponse(items: [3], pageCount: 2)))
        paginator.loadNextPage()
        #expect(service.pages == [1, 2])
        #expect(states.value.map(\.name) == ["uninitialized", "refreshing", "data", "loadingMore", "data"])
        #expect(Array(paginator.items.value) == [1, 2, 3])
        #expect(paginator.isEndReached.value)
    }

    @Test("cursor(completion:) requests each page after the cursor the previous one named")
    func cursor() {
        let service = CompletionService<String?, CursorPage>()
        let paginator = Paginator(
            source: .cursor { cursor, _, _, completion in service.load(cursor, completion: completion) }, pageSize: 2)
        let items = paginator.items.recordValues()
        paginator.refresh()
        service.answerOnAnotherThread(.success(CursorPage(items: [1, 2], nextCursor: "b")))
        paginator.loadNextPage()
        service.answerOnAnotherThread(.success(CursorPage(items: [3], nextCursor: nil)))
        paginator.loadNextPage()
        #expect(service.keys == [nil, "b"])
        #expect(items.value.map(Array.init) == [[], [1, 2], [1, 2, 3]])
        #expect(paginator.isEndReached.value)
    }

    @Test("exhaustible(completion:) counts pages from 0 until the service says it is exhausted")
    func exhaustible() {
        let service = CompletionService<Int, FlaggedPage>()
        let paginator = Paginator(
            source: .exhaustible { index, _, _, completion in service.load(index, completion: completion) },
            pageSize: 2)
        let items = paginator.items.recordValues()
        paginator.refresh()
        service.answer(.success(FlaggedPage(items: [1, 2], isExhausted: false)))
        paginator.loadNextPage()
        service.answer(.success(FlaggedPage(items: [3, 4], isExhausted: true)))
        paginator.loadNextPage()
        #expect(service.keys == [0, 1])
        #expect(items.value.map(Array.init) == [[], [1, 2], [1, 2, 3, 4]])
        #expect(paginator.isEndReached.value)
    }

    @Test("singleLoad(completion:) loads every item once, for the query, and the list ends there")
    func singleLoad() {
        let service = CompletionService<String, [Int]>()
        let paginator = Paginator(
            source: .singleLoad { query, completion in service.load(query, completion: completion) }, pageSize: 10,
            query: "all")
        let states = paginator.state.recordValues()
        paginator.refresh()
        service.answerOnAnotherThread(.success([1, 2, 3]))
        paginator.loadNextPage()
        #expect(service.keys == ["all"])
        #expect(states.value == [.uninitialized, .refreshing, .data])
        #expect(Array(paginator.items.value) == [1, 2, 3] && paginator.isEndReached.value)
    }

    @Test("PageSource(firstKey:loadPage:) with a completion answers each request with the page it is given")
    func general() {
        let service = CompletionService<PageRequest<Int, Void>, Page<Int, Int, Void>>()
        let source = PageSource<Int, Int, Void, Void, ServerError>(firstKey: 100) { request, completion in
            service.load(request, completion: completion)
        }
        let paginator = Paginator(source: source, pageSize: 2)
        let items = paginator.items.recordValues()
        paginator.refresh()
        service.answerOnAnotherThread(.success(Page(items: [1, 2], nextKey: 200)))
        paginator.loadNextPage()
        service.answerOnAnotherThread(.success(Page(items: [3], nextKey: nil)))
        #expect(service.keys.map(\.key) == [100, 200])
        #expect(service.keys.map(\.pageSize) == [2, 2])
        #expect(items.value.map(Array.init) == [[], [1, 2], [1, 2, 3]])
        #expect(paginator.isEndReached.value)
    }

    // MARK: The completion's rules

    @Test("a completion called twice counts once: the second page and a later failure are ignored")
    func doubleCompletion() {
        let service = CompletionService<Int, Response>()
        let paginator = Paginator(
            source: .offset { offset, _, _, completion in service.load(offset, completion: completion) }, pageSize: 10)
        let states = paginator.state.recordValues()
        let items = paginator.items.recordValues()
        paginator.refresh()
        service.last?.complete(.success(page(0, 10, total: 30)))
        service.last?.complete(.success(page(0, 10, total: 30, base: 100)))
        service.last?.complete(.failure(.timeout))
        paginator.loadNextPage()
        #expect(service.keys == [0, 10], "the next page follows the first answer")
        #expect(states.value == [.uninitialized, .refreshing, .data, .loadingMore])
        #expect(items.value.map(Array.init) == [[], Array(0..<10)])
    }

    @Test("two threads calling one completion at once apply exactly one of the two pages")
    func doubleCompletionRace() {
        for _ in 0..<200 {
            let service = CompletionService<Int, Response>()
            let paginator = Paginator(
                source: .offset { offset, _, _, completion in service.load(offset, completion: completion) },
                pageSize: 10)
            let pageCounts = paginator.pages.recordValues()
            paginator.refresh()
            let completion = service.last
            raceFromBarrier(threads: 2) { thread in
                completion?.complete(.success(page(0, 10, total: 30, base: thread * 100)))
            }
            #expect(pageCounts.value == [0, 1])
            #expect([Array(0..<10), Array(100..<110)].contains(Array(paginator.items.value)))
        }
    }

    @Test("a completion called after refresh() superseded its load is dropped; the new load's answer applies")
    func lateCompletionAfterRefresh() {
        let service = CompletionService<Int, Response>()
        let paginator = Paginator(
            source: .offset { offset, _, _, completion in service.load(offset, completion: completion) }, pageSize: 10)
        let states = paginator.state.recordValues()
        let items = paginator.items.recordValues()
        paginator.refresh()
        let superseded = service.last
        paginator.refresh()
        superseded?.complete(.success(page(0, 10, total: 30, base: 100)))
        #expect(states.value == [.uninitialized, .refreshing], "the late answer changes nothing")
        service.last?.complete(.success(page(0, 10, total: 30)))
        service.answerOnAnotherThread(.failure(.timeout), to: 0)
        #expect(service.keys == [0, 0])
        #expect(states.value == [.uninitialized, .refreshing, .data])
        #expect(items.value.map(Array.init) == [[], Array(0..<10)])
    }

    @Test("a failure reaches the state as a source error, and retry() asks the service for the same page")
    func failureAndRetry() {
        let service = CompletionService<Int, Response>()
        let paginator = Paginator(
            source: .offset { offset, _, _, completion in service.load(offset, completion: completion) }, pageSize: 10)
        let states = paginator.state.recordValues()
        let laterErrors = Locked<[PagingError<ServerError>]>([])
        paginator.errorsAfterFirstPage.observeValues { laterErrors.append($0) }
        paginator.refresh()
        service.answerOnAnotherThread(.failure(.unavailable))
        paginator.retry()
        service.answerOnAnotherThread(.success(page(0, 10, total: 30)))
        paginator.loadNextPage()
        service.answerOnAnotherThread(.failure(.timeout))
        #expect(service.keys == [0, 0, 10])
        #expect(
            states.value == [
                .uninitialized, .refreshing, .errorRefreshing(.source(.unavailable)), .refreshing, .data, .loadingMore,
                .errorLoadingMore(.source(.timeout)),
            ])
        #expect(laterErrors.value == [.source(.timeout)])
        #expect(Array(paginator.items.value) == Array(0..<10))
    }

    // MARK: The producer under every factory

    @Test("the producer sends the completion's first result, a value then completed, and ignores later calls")
    func producerFirstResultWins() {
        let service = CompletionService<Int, Int>()
        let (recorder, _) = SignalProducer<Int, ServerError>.fromCompletion { service.load(1, completion: $0) }.record()
        service.answer(.success(1))
        service.answerOnAnotherThread(.success(2))
        service.answer(.failure(.timeout))
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test("the producer sends a failure as its failure")
    func producerFailure() {
        let service = CompletionService<Int, Int>()
        let (recorder, _) = SignalProducer<Int, ServerError>.fromCompletion { service.load(1, completion: $0) }.record()
        service.answerOnAnotherThread(.failure(.unavailable))
        service.answer(.success(1))
        #expect(recorder.events == [.failed(.unavailable)])
    }

    @Test("a completion called after the producer's run was disposed is dropped")
    func producerDisposedDropsLateCompletion() {
        let service = CompletionService<Int, Int>()
        let (recorder, disposable) = SignalProducer<Int, ServerError>.fromCompletion {
            service.load(1, completion: $0)
        }.record()
        disposable.dispose()
        service.answerOnAnotherThread(.success(1))
        #expect(recorder.events == [.interrupted])
    }

    @Test("a service that keeps a completion keeps nothing alive: the paginator is freed, a late call does nothing")
    func keptCompletionLeaksNothing() {
        let service = CompletionService<Int, Response>()
        weak var weakPaginator: Paginator<Int, Int, Void, Response, ServerError>?
        do {
            let paginator = Paginator(
                source: .offset { offset, _, _, completion in service.load(offset, completion: completion) },
                pageSize: 10)
            weakPaginator = paginator
            paginator.refresh()
        }
        #expect(weakPaginator == nil)
        service.answerOnAnotherThread(.success(page(0, 10, total: 30)))
        #expect(service.keys == [0])
    }
}

/// A completion-handler backend driven by the test: each call is recorded with its completion, which
/// the test calls when, how often and on whichever thread it chooses.
private final class CompletionService<Key: Sendable, Response: Sendable>: Sendable {
    /// One call of the service.
    struct Call: Sendable {
        let key: Key
        let complete: @Sendable (Result<Response, ServerError>) -> Void
    }

    private let log = Locked<[Call]>([])

    /// The keys of every call so far.
    var keys: [Key] { log.value.map(\.key) }

    /// The latest call.
    var last: Call? { log.value.last }

    /// The service's API: starts the load of `key` and calls `completion` later.
    func load(_ key: Key, completion: @escaping @Sendable (Result<Response, ServerError>) -> Void) {
        log.append(Call(key: key, complete: completion))
    }

    /// Calls the latest call's completion with `result` on this thread.
    func answer(_ result: Result<Response, ServerError>) {
        last?.complete(result)
    }

    /// Calls the completion of call `index` (the latest by default) with `result` on a fresh thread, and
    /// waits for that thread to finish.
    func answerOnAnotherThread(_ result: Result<Response, ServerError>, to index: Int? = nil) {
        let calls = log.value
        guard let call = index.map({ calls[$0] }) ?? calls.last else { return }
        let finished = finishesWithin { call.complete(result) }
        #expect(finished, "the completion returned")
    }
}

/// A service written before Swift concurrency: an untyped `Error` and a completion that is not `@Sendable`.
private final class LegacyPageService: Sendable {
    typealias Completion = (Result<CompletionBridgeTests.NumberedResponse, Error>) -> Void

    private let log = Locked<[(page: Int, completion: Completion)]>([])

    /// The page numbers requested so far.
    var pages: [Int] { log.value.map(\.page) }

    func loadPage(_ page: Int, completion: @escaping Completion) {
        log.append((page, completion))
    }

    /// Calls the latest request's completion with `result`.
    func answer(_ result: Result<CompletionBridgeTests.NumberedResponse, Error>) {
        log.value.last?.completion(result)
    }
}
