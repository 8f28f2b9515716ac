import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// The recipes of the hazard catalogue that the other suites covered only in part, written out in full against
/// the `Paginator`: P1's calls before, during and after loads, P11's every way to interrupt a load,
/// P12's response shapes on the first and a later page, P13's refresh from inside a notification,
/// P14's barrier stress, P15's shared storage.
@Suite("Paging hazards: recipes in full")
struct HazardRecipeTests {
    typealias QueryPaginator = Paginator<Int, Int, String, Response, ServerError>

    static func paginator(_ server: OffsetServer, pageSize: Int = 10, prefetchDistance: Int = 3) -> QueryPaginator {
        QueryPaginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q",
            options: PagingOptions(pageSize: pageSize, prefetchDistance: prefetchDistance))
    }

    // MARK: P1

    @Test("P1: one request per page however often asked: none before the first page, one while loading, then the next")
    func P1_oneRequestPerPage() {
        let server = OffsetServer()
        let paginator = Self.paginator(server)
        for index in -1..<100 {
            paginator.loadNextPage()
            paginator.preload(index: index)
        }
        #expect(server.keys == [], "nothing before the first page")
        paginator.refresh()
        for index in 0..<100 {
            paginator.loadNextPage()
            paginator.preload(index: index)
        }
        #expect(server.keys == [0], "nothing while the first page loads")
        server.last?.succeed(page(0, 10, total: 100))
        for _ in 0..<100 { paginator.loadNextPage() }
        #expect(server.keys == [0, 10])
        #expect(server.last?.size == 10)
        server.last?.succeed(page(10, 10, total: 100))
        for index in 0..<paginator.items.value.count { paginator.preload(index: index) }
        #expect(server.keys == [0, 10, 20], "preload for every row: one request")
        server.last?.succeed(page(20, 10, total: 100))
        paginator.loadNextPage()
        #expect(server.keys == [0, 10, 20, 30], "a finished load never leaves a stuck flag")
    }

    // MARK: P11

    enum Interruption: String, CaseIterable, CustomStringConvertible {
        case refresh, queryChange, cancel, release
        var description: String { rawValue }
    }

    @Test(
        "P11: refresh, a query change, cancel and release each dispose the load in flight once, with no error",
        arguments: Interruption.allCases, [false, true])
    func P11_interruptionIsNeverAnError(interruption: Interruption, laterPage: Bool) {
        let server = OffsetServer()
        let errors = Locked<[String]>([])
        let states = Locked<[String]>([])
        weak var weakPaginator: QueryPaginator?
        do {
            let paginator = Self.paginator(server)
            weakPaginator = paginator
            paginator.errorsAfterFirstPage.observeValues { errors.append("\($0)") }
            paginator.state.signal.observeValues { states.append($0.description) }
            paginator.refresh()
            if laterPage {
                server.last?.succeed(page(0, 10, total: 100))
                paginator.loadNextPage()
            }
            let inFlight = server.requests.count - 1
            switch interruption {
            case .refresh: paginator.refresh()
            case .queryChange: paginator.refresh(query: "other")
            case .cancel: paginator.cancel()
            case .release: break
            }
            if interruption != .release {
                #expect(server.requests[inFlight].disposeCount == 1)
                let expected =
                    switch (interruption, laterPage) {
                    case (.cancel, false): "uninitialized"
                    case (.cancel, true): "data"
                    default: "refreshing"
                    }
                #expect(paginator.state.value.description == expected)
                let live = server.requests.filter { !$0.isDisposed }.count
                #expect(live == (interruption == .cancel ? 0 : 1), "only the refresh's own load runs")
            }
        }
        if interruption == .release { #expect(weakPaginator == nil) }
        let interrupted = server.requests[laterPage ? 1 : 0]
        #expect(interrupted.disposeCount == 1)
        // The interrupted request answering anyway, from another thread, changes nothing.
        interrupted.fail(.timeout, on: DispatchQueue(label: "late"))
        #expect(errors.value == [])
        #expect(!states.value.contains { $0.hasPrefix("error") }, "\(states.value)")
    }

    @Test(
        "P11: an async request interrupted by refresh, a query change or cancel sees its task cancelled",
        arguments: [Interruption.refresh, .queryChange, .cancel])
    func P11_asyncTaskCancelled(interruption: Interruption) async {
        let cancelled = Locked<[String]>([])
        let started = Locked<[String]>([])
        let paginator = Paginator(
            source: .offset { (offset: Int, size: Int, query: String) async throws(ServerError) -> Response in
                started.append(query)
                guard query == "slow" else { return page(offset, size, total: 10) }
                try? await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                if Task.isCancelled { cancelled.append(query) }
                throw .timeout
            }, pageSize: 5, query: "slow")
        let errors = paginator.errorsAfterFirstPage.record()
        synchronously { paginator.refresh() }
        #expect(await eventually { started.value == ["slow"] })
        switch interruption {
        case .refresh: synchronously { paginator.refresh(query: "slow") }
        case .queryChange: synchronously { paginator.refresh(query: "fast") }
        case .cancel, .release: paginator.cancel()
        }
        #expect(await eventually { cancelled.value.count == 1 }, "Task.isCancelled was observed")
        #expect(cancelled.value == ["slow"])
        if interruption == .queryChange {
            #expect(await eventually { paginator.state.value == .data })
            #expect(Array(paginator.items.value) == Array(0..<5))
        }
        #expect(!paginator.state.value.description.hasPrefix("error"))
        #expect(errors.events.isEmpty)
    }

    // MARK: P12

    enum Shape: String, CaseIterable, CustomStringConvertible {
        case noValue, oneValue, twoValues, valueThenError
        var description: String { rawValue }

        func answer(_ request: OffsetServer.Request) {
            let full = page(request.key, 10, total: 100)
            switch self {
            case .noValue:
                request.complete()
            case .oneValue:
                request.succeed(full)
            case .twoValues:
                request.send(full)
                request.send(page(request.key + 10, 10, total: 100, base: 5_000))
            case .valueThenError:
                request.send(full)
                request.fail(.unavailable)
            }
        }
    }

    @Test(
        "P12: each response shape on the first and on a later page: state, items, pages, next key, one disposal",
        arguments: Shape.allCases, [1, 2])
    func P12_shapes(shape: Shape, pageNumber: Int) {
        let server = OffsetServer()
        let paginator = Self.paginator(server)
        let errors = paginator.errorsAfterFirstPage.record()
        paginator.refresh()
        if pageNumber == 2 {
            server.last?.succeed(page(0, 10, total: 100))
            paginator.loadNextPage()
        }
        let request = server.last!
        shape.answer(request)
        #expect(request.disposeCount == 1)
        let loadedBefore = pageNumber == 2 ? Array(0..<10) : []
        if shape == .noValue {
            let expected: PagingState<ServerError> =
                pageNumber == 1 ? .errorRefreshing(.noPage) : .errorLoadingMore(.noPage)
            #expect(paginator.state.value == expected)
            #expect(Array(paginator.items.value) == loadedBefore)
            #expect(paginator.pages.value == pageNumber - 1)
            #expect(errors.values == (pageNumber == 2 ? [.noPage] : []))
            for _ in 0..<10 {
                paginator.loadNextPage()
                paginator.preload(index: 9)
            }
            #expect(server.requests.count == pageNumber, "no re-request loop")
            paginator.retry()
            #expect(server.keys.last == (pageNumber - 1) * 10, "retry asks for the same key")
        } else {
            #expect(paginator.state.value == .data)
            #expect(Array(paginator.items.value) == loadedBefore + Array((pageNumber - 1) * 10..<pageNumber * 10))
            #expect(paginator.pages.value == pageNumber, "one page per request")
            #expect(errors.values.isEmpty)
            paginator.loadNextPage()
            #expect(server.keys.last == pageNumber * 10)
        }
    }

    // MARK: P13

    @Test(
        "P13: refresh(query:) from inside the loadingMore notification of a synchronous source: only the refresh shows")
    func P13_refreshFromInsideANotification() {
        let paginator = Paginator<Int, Int, Int, Response, ServerError>(
            source: .offset { offset, size, query in
                SignalProducer(value: page(offset, size, total: 50, base: query * 1_000))
            }, pageSize: 5, query: 0)
        let states = Locked<[String]>([])
        let itemsLog = paginator.items.recordValues()
        let refreshed = Locked(false)
        paginator.state.signal.observeValues { state in
            states.append(state.name)
            if state == .loadingMore, !refreshed.value {
                refreshed.value = true
                paginator.refresh(query: 1)
            }
        }
        let finished = finishesWithin(seconds: 30, stackSize: 512 * 1024) {
            paginator.refresh()
            paginator.loadNextPage()
        }
        #expect(finished)
        #expect(Array(paginator.items.value) == Array(1_000..<1_005))
        #expect(paginator.state.value == .data && paginator.pages.value == 1 && paginator.query.value == 1)
        #expect(states.value == ["refreshing", "data", "loadingMore", "refreshing", "data"])
        #expect(
            itemsLog.value.map(Array.init) == [[], Array(0..<5), Array(1_000..<1_005)], "the stale page never shows")
    }

    // MARK: P14

    @Test("P14: 4 threads answer while 4 call loadNext, refresh(query:) and retry: every change matches its snapshot")
    func P14_barrierStress() {
        let racers = RacingThreads(count: 8)
        defer { racers.stop() }
        for iteration in 0..<500 {
            let server = OffsetServer()
            let paginator = Paginator(
                source: .offset { offset, size, query in server.producer(offset + query * 1_000, size: size) },
                pageSize: 5, query: 0)
            // Unsynchronised on purpose: TSan reports a race if two notifications ever overlap.
            let notified = Unsynchronized(0)
            let mismatches = Locked<[String]>([])
            paginator.updates.observeValues { update in
                notified.value += 1
                let shown = paginator.items.value.count
                switch update.change {
                case .appended(let rows):
                    if update.previous.count != rows.lowerBound || update.items.count != rows.upperBound
                        || shown != rows.upperBound
                    {
                        mismatches.append("\(rows): previous \(update.previous.count), now \(update.items.count)")
                    }
                case .reloaded, .cleared:
                    if shown != update.items.count { mismatches.append("\(update.change): shown \(shown)") }
                case .inserted, .removed, .updated, .difference:
                    mismatches.append("an append-only list published \(update.change)")
                }
            }
            paginator.refresh()
            server.last?.succeed(page(0, 5, total: 1_000))
            racers.race { thread in
                for step in 0..<40 {
                    if thread < 4 {
                        guard let request = server.requests.last, !request.isDisposed else { continue }
                        let offset = request.key % 1_000
                        if (thread + step) % 5 == 0 {
                            request.fail(.timeout)
                        } else {
                            request.succeed(page(offset, 5, total: 1_000, base: request.key - offset))
                        }
                    } else {
                        switch (thread + step) % 6 {
                        case 0: paginator.refresh(query: step % 3)
                        case 1: paginator.retry()
                        default: paginator.loadNextPage()
                        }
                    }
                }
            }
            #expect(mismatches.value.isEmpty, "iteration \(iteration): \(mismatches.value.prefix(3))")
            #expect(notified.value >= 1)
        }
    }

    // MARK: P15

    @Test("P15: every kept snapshot shares the pages' storage: one chunk per page, never a copy")
    func P15_sharedStorage() {
        let stapler = Stapler<Response, ServerError>(pageSize: 7) { offset, size in
            SignalProducer(value: page(offset, min(size, 700 - offset), total: 700))
        }
        let snapshots = Locked<[PagedItems<Int>]>([])
        stapler.items.signal.observeValues { snapshots.append($0) }
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        let kept = snapshots.value
        #expect(kept.count == 100)
        func address(_ items: PagedItems<Int>, page: Int) -> UnsafeRawPointer? {
            items.items(ofPage: page).withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let last = kept[99]
        for (index, snapshot) in kept.enumerated() {
            #expect(snapshot.pageCount == index + 1, "one chunk per page")
            for page in [0, index / 2, index] {
                #expect(
                    address(snapshot, page: page) == address(last, page: page), "page \(page) is shared, not copied")
            }
        }
    }
}
