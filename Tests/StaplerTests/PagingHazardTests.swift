import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// The paging hazards of the hazard catalogue at the paginator level, deterministic first, then stressed.
@Suite("Paging hazards")
struct PagingHazardTests {
    typealias OffsetPaginator = Paginator<Int, Int, String, Response, ServerError>
    typealias QueryServer = ManualServer<Call<Int, String>, Response, ServerError>

    /// An offset paginator over `server`, which records `(offset, query)`.
    static func offsetPaginator(
        _ server: QueryServer, pageSize: Int = 10, prefetchDistance: Int? = nil,
        deduplication: Deduplication<Int>? = nil
    ) -> OffsetPaginator {
        OffsetPaginator(
            source: .offset { offset, size, query in server.producer(Call(offset, query), size: size) }, query: "q",
            options: PagingOptions(pageSize: pageSize, prefetchDistance: prefetchDistance, deduplication: deduplication)
        )
    }

    /// Answers the latest request of `server` with the items of `list` from its offset.
    static func answer(_ server: QueryServer, from list: [Int], pageSize: Int = 10) {
        let offset = server.last!.key.key
        let items = Array(list[min(offset, list.count)..<min(offset + pageSize, list.count)])
        server.last?.succeed(Response(items: items, total: list.count))
    }

    // MARK: P3

    @Test("P3: refresh(query:) A, B, A: stale answers that reach the engine on other threads are never applied")
    func P3_queryABAThroughTheEngine() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        let states = paginator.recordEveryState()
        let items = paginator.items.recordValues()
        let reachedEngine = Locked<[Bool]>([])
        // While each new refresh is announced, the load it superseded is not disposed yet: answering it
        // then, from another thread, delivers the stale page to the engine, whose ticket check drops it.
        paginator.snapshot.signal.observeValues { snapshot in
            guard case .refreshing = snapshot.state, snapshot.generation >= 2 else { return }
            let stale = server.requests[Int(snapshot.generation) - 2]
            reachedEngine.append(!stale.isDisposed)
            let base = Int(snapshot.generation) * 100
            stale.succeed(page(0, 10, total: 10, base: base), on: DispatchQueue(label: "stale \(base)"))
        }
        paginator.refresh(query: "A")
        paginator.refresh(query: "B")
        paginator.refresh(query: "A")
        #expect(reachedEngine.value == [true, true])
        #expect(server.keys == [Call(0, "A"), Call(0, "B"), Call(0, "A")])
        #expect(server.requests.map(\.disposeCount) == [1, 1, 0])
        #expect(paginator.state.value == .refreshing)
        #expect(paginator.items.value.isEmpty)
        server.last?.succeed(page(0, 10, total: 10, base: 7_000))
        #expect(Array(paginator.items.value) == Array(7_000..<7_010))
        #expect(items.value.map(Array.init) == [[], Array(7_000..<7_010)])
        #expect(names(states.value) == ["uninitialized", "refreshing", "refreshing", "refreshing", "data"])
    }

    // MARK: P4

    @Test("P4: an insert at the head between pages repeats items; with dedup they are dropped and the offset holds")
    func P4_insertWithDedup() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server, deduplication: .by { $0 })
        let changes = paginator.recordChanges()
        var list = Array(0..<100)
        paginator.refresh()
        Self.answer(server, from: list)
        list.insert(contentsOf: [-2, -1], at: 0)
        paginator.loadNextPage()
        Self.answer(server, from: list)
        paginator.loadNextPage()
        #expect(Array(paginator.items.value) == Array(0...17))
        #expect(changes.value == [.reloaded(Array(0..<10)), .appended(Array(10...17), at: 10..<18)])
        #expect(server.keys.map(\.key) == [0, 10, 20], "the next offset counts the 10 items sent")
    }

    @Test("P4: without dedup (the default) the repeated items appear twice")
    func P4_insertWithoutDedup() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        var list = Array(0..<100)
        paginator.refresh()
        Self.answer(server, from: list)
        list.insert(contentsOf: [-2, -1], at: 0)
        paginator.loadNextPage()
        Self.answer(server, from: list)
        #expect(Array(paginator.items.value) == Array(0..<10) + Array(8...17))
    }

    @Test("P4: a delete at the head between pages skips items (offset paging cannot see it) and traps nothing")
    func P4_deleteSkips() {
        for deduplication in [nil, Deduplication<Int>.by { $0 }] {
            let server = QueryServer()
            let paginator = Self.offsetPaginator(server, deduplication: deduplication)
            var list = Array(0..<100)
            paginator.refresh()
            Self.answer(server, from: list)
            list.removeFirst(2)
            paginator.loadNextPage()
            Self.answer(server, from: list)
            #expect(Array(paginator.items.value) == Array(0..<10) + Array(12...21))
            #expect(paginator.total.value == 98)
        }
    }

    // MARK: P8

    typealias CursorServer = ManualServer<String?, CursorPage, ServerError>

    static func cursorPaginator(_ server: CursorServer) -> Paginator<Int, String?, Void, CursorPage, ServerError> {
        Paginator(source: .cursor { cursor, size, _ in server.producer(cursor, size: size) }, pageSize: 2)
    }

    @Test("P8: a cursor that repeats itself is rejected whole; nothing loops; retry asks once and paging goes on")
    func P8_repeatedCursor() {
        let server = CursorServer()
        let paginator = Self.cursorPaginator(server)
        let errors = paginator.errorsAfterFirstPage.record()
        paginator.refresh()
        server.last?.succeed(CursorPage(items: [1, 2], nextCursor: "b"))
        paginator.loadNextPage()
        server.last?.succeed(CursorPage(items: [3, 4], nextCursor: "b"))
        #expect(paginator.state.value == .errorLoadingMore(.repeatedKey))
        #expect(Array(paginator.items.value) == [1, 2], "the page is rejected whole")
        #expect(errors.values == [.repeatedKey])
        for _ in 0..<10 {
            paginator.loadNextPage()
            paginator.preload(index: 1)
        }
        #expect(server.keys == [nil, "b"], "no third request")
        paginator.retry()
        paginator.retry()
        #expect(server.keys == [nil, "b", "b"])
        server.last?.succeed(CursorPage(items: [3, 4], nextCursor: "c"))
        paginator.loadNextPage()
        #expect(server.keys == [nil, "b", "b", "c"])
        #expect(Array(paginator.items.value) == [1, 2, 3, 4])
    }

    @Test("P8: a cycle A→B→A is rejected as .repeatedKey, and a refresh clears the keys seen")
    func P8_cursorCycle() {
        let server = CursorServer()
        let paginator = Self.cursorPaginator(server)
        paginator.refresh()
        server.last?.succeed(CursorPage(items: [1, 2], nextCursor: "a"))
        paginator.loadNextPage()
        server.last?.succeed(CursorPage(items: [3, 4], nextCursor: "b"))
        paginator.loadNextPage()
        server.last?.succeed(CursorPage(items: [5, 6], nextCursor: "a"))
        #expect(paginator.state.value == .errorLoadingMore(.repeatedKey))
        #expect(Array(paginator.items.value) == [1, 2, 3, 4])
        for _ in 0..<10 { paginator.loadNextPage() }
        paginator.refresh()
        server.last?.succeed(CursorPage(items: [1, 2], nextCursor: "a"))
        paginator.loadNextPage()
        server.last?.succeed(CursorPage(items: [3, 4], nextCursor: "b"))
        #expect(server.keys == [nil, "a", "b", nil, "a"])
        #expect(paginator.state.value == .data)
        #expect(Array(paginator.items.value) == [1, 2, 3, 4])
    }

    @Test("P8: a first page whose next key is its own is a first-page .repeatedKey error; retry asks once more")
    func P8_repeatedKeyOnFirstPage() {
        let server = ManualServer<String, Page<Int, String, Void>, ServerError>()
        let paginator = Paginator(
            source: PageSource<Int, String, Void, Void, ServerError>(firstKey: "a") { request in
                server.producer(request.key)
            }, pageSize: 2)
        let errors = paginator.errorsAfterFirstPage.record()
        paginator.refresh()
        server.last?.succeed(Page(items: [1, 2], nextKey: "a"))
        #expect(paginator.state.value == .errorRefreshing(.repeatedKey))
        #expect(paginator.items.value.isEmpty && errors.values.isEmpty)
        paginator.retry()
        paginator.retry()
        server.last?.succeed(Page(items: [1, 2], nextKey: "b"))
        #expect(server.keys == ["a", "a"])
        #expect(paginator.state.value == .data)
    }

    // MARK: P9

    @Test(
        "P9: a first-page error stays on the first page; a later one keeps the items, reaches its signal, ends nothing")
    func P9_errorsRouted() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        let states = paginator.recordStates()
        let errors = paginator.errorsAfterFirstPage.record()
        let screens = paginator.presentation.recordValues()
        paginator.refresh()
        server.last?.fail(.unavailable)
        #expect(errors.values.isEmpty)
        #expect(screens.value.last == .failed(.source(.unavailable)))
        paginator.refresh()
        Self.answer(server, from: Array(0..<30))
        paginator.loadNextPage()
        server.last?.fail(.timeout)
        #expect(Array(paginator.items.value) == Array(0..<10))
        #expect(!paginator.isEndReached.value && paginator.pages.value == 1)
        #expect(screens.value.last == .content(ListContent(itemCount: 10, footer: .retry(.source(.timeout)))))
        paginator.refresh()
        server.last?.fail(.unavailable)
        #expect(Array(paginator.items.value) == Array(0..<10), "a failed refresh keeps the items (decision 5)")
        #expect(
            screens.value.last
                == .content(ListContent(itemCount: 10, footer: .hidden, refreshError: .source(.unavailable))))
        #expect(errors.values == [.source(.timeout)], "only the later page's error, once")
        #expect(
            states.value == [
                .uninitialized, .refreshing, .errorRefreshing(.source(.unavailable)), .refreshing, .data, .loadingMore,
                .errorLoadingMore(.source(.timeout)), .refreshing, .errorRefreshing(.source(.unavailable)),
            ])
    }

    // MARK: P10

    @Test("P10: after a later page's error nothing but retry() requests; it asks once with the same key and query")
    func P10_retryOnly() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        paginator.refresh(query: "cats")
        Self.answer(server, from: Array(0..<30))
        paginator.loadNextPage()
        server.last?.fail(.timeout)
        for _ in 0..<50 {
            paginator.preload(index: 9)
            paginator.loadNextPage()
        }
        #expect(server.keys == [Call(0, "cats"), Call(10, "cats")])
        paginator.retry()
        #expect(server.keys == [Call(0, "cats"), Call(10, "cats"), Call(10, "cats")])
        #expect(server.last?.size == 10)
        Self.answer(server, from: Array(0..<30))
        #expect(Array(paginator.items.value) == Array(0..<20))
        #expect(paginator.state.value == .data)
        paginator.retry()
        #expect(server.keys.count == 3)
    }

    @Test("P10: retry() in any state but an error or an empty list does nothing")
    func P10_retryElsewhereIsANoOp() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        let snapshots = paginator.snapshot.recordValues()
        func retryChangesNothing() -> Bool {
            let (requests, published) = (server.requests.count, snapshots.value.count)
            paginator.retry()
            return server.requests.count == requests && snapshots.value.count == published
        }
        #expect(retryChangesNothing(), "uninitialized")
        paginator.refresh()
        #expect(retryChangesNothing(), "refreshing")
        Self.answer(server, from: Array(0..<20))
        #expect(retryChangesNothing(), "data")
        paginator.loadNextPage()
        #expect(retryChangesNothing(), "loadingMore")
        Self.answer(server, from: Array(0..<20))
        #expect(paginator.isEndReached.value)
        #expect(retryChangesNothing(), "data at the end")
        #expect(server.keys.map(\.key) == [0, 10])
        paginator.refresh()
        server.last?.succeed(Response(items: [], total: 0))
        #expect(paginator.state.value == .noData)
        paginator.retry()
        #expect(server.keys.map(\.key) == [0, 10, 0, 0], "an empty list reloads, as TIPagination's retry does")
        #expect(paginator.state.value == .refreshing)
    }

    @Test("P10: after a first-page error retry() requests the first key again, with the query")
    func P10_retryFirstPage() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        paginator.refresh(query: "dogs")
        server.last?.fail(.unavailable)
        paginator.retry()
        paginator.retry()
        #expect(server.keys == [Call(0, "dogs"), Call(0, "dogs")])
        #expect(paginator.state.value == .refreshing)
        Self.answer(server, from: Array(0..<5))
        #expect(Array(paginator.items.value) == Array(0..<5))
    }

    // MARK: P17

    @Test("P17: negative, huge and stale indices request nothing and never trap")
    func P17_outOfRangeIndices() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server)
        for index in [-1, Int.min, Int.max] { paginator.preload(index: index) }
        paginator.refresh()
        Self.answer(server, from: Array(0..<100))
        for index in [-1, Int.min, Int.max, 10, 1_000] { paginator.preload(index: index) }
        #expect(server.keys.count == 1)
        for _ in 0..<2 {
            paginator.loadNextPage()
            Self.answer(server, from: Array(0..<100))
        }
        paginator.refresh()
        server.last?.succeed(Response(items: Array(0..<5), total: 100))
        for index in [25, 29, 5, 9] { paginator.preload(index: index) }
        #expect(server.keys.map(\.key) == [0, 10, 20, 0], "indices from before the shrink request nothing")
        paginator.preload(index: 4)
        #expect(server.keys.map(\.key) == [0, 10, 20, 0, 5])
    }

    @Test("P17: preload loads exactly from the row prefetchDistance rows before the last one", arguments: [0, 3, 5, 9])
    func P17_distanceBoundary(distance: Int) {
        for (row, loads) in [(9 - distance - 1, false), (9 - distance, true)] where row >= 0 {
            let server = QueryServer()
            let paginator = Self.offsetPaginator(server, prefetchDistance: distance)
            paginator.refresh()
            Self.answer(server, from: Array(0..<100))
            paginator.preload(index: row)
            #expect(server.keys.count == (loads ? 2 : 1), "row \(row), distance \(distance)")
        }
    }

    @Test("P17: the default prefetch distance is half the page size")
    func P17_defaultDistance() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server, pageSize: 10)
        paginator.refresh()
        Self.answer(server, from: Array(0..<100))
        paginator.preload(index: 3)
        #expect(server.keys.count == 1)
        paginator.preload(index: 4)
        #expect(server.keys.count == 2)
    }

    @Test("P17: a negative prefetch distance traps with a message naming prefetchDistance")
    func P17_negativeDistanceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in SignalProducer<Response, ServerError>.never },
                options: PagingOptions(pageSize: 10, prefetchDistance: -1))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("prefetchDistance"))
    }

    // MARK: P18

    @Test("P18: a page of only duplicates does not end the list, and the next key advances by the count sent")
    func P18_allDuplicatesPage() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server, deduplication: .by { $0 })
        let changes = paginator.recordChanges()
        paginator.refresh()
        server.last?.succeed(page(0, 10, total: 100))
        paginator.loadNextPage()
        server.last?.succeed(page(0, 10, total: 100))
        #expect(Array(paginator.items.value) == Array(0..<10))
        #expect(paginator.state.value == .data && !paginator.isEndReached.value && paginator.pages.value == 2)
        #expect(changes.value == [.reloaded(Array(0..<10))], "nothing appended")
        paginator.loadNextPage()
        #expect(server.keys.map(\.key) == [0, 10, 20])
    }

    @Test("P18: duplicates within one page are dropped, and a refresh clears the identities seen")
    func P18_duplicatesWithinAPage() {
        let server = QueryServer()
        let paginator = Self.offsetPaginator(server, deduplication: .by { $0 })
        paginator.refresh()
        server.last?.succeed(Response(items: [1, 1, 2], total: 10))
        #expect(Array(paginator.items.value) == [1, 2])
        paginator.loadNextPage()
        server.last?.succeed(Response(items: [2, 3, 3, 1], total: 10))
        #expect(Array(paginator.items.value) == [1, 2, 3])
        paginator.loadNextPage()
        #expect(server.keys.map(\.key) == [0, 3, 7])
        paginator.refresh()
        server.last?.succeed(Response(items: [3, 1, 1], total: 10))
        #expect(Array(paginator.items.value) == [3, 1], "ids from before the refresh are accepted again")
    }
}
