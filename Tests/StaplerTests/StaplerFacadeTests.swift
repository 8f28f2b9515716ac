import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// Seed 002's interface documentation, sentence by sentence, plus the engine guarantees the facade inherits.
@Suite("Stapler facade")
struct StaplerFacadeTests {
    @Test("the initial load fills items, pages and total, and completes the action")
    func initialLoad() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let completed = Locked(0)
        stapler.initialLoadAction.completed.observeValues { completed.increment(by: 1) }
        #expect(stapler.items.value.isEmpty && stapler.pages.value == 0 && stapler.total.value == 0)
        stapler.initialLoadAction.apply().start()
        #expect(stapler.initialLoadAction.isExecuting.value)
        #expect(server.keys == [0])
        #expect(server.last?.size == 10)
        server.last?.succeed(page(0, 10, total: 25))
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(stapler.pages.value == 1)
        #expect(stapler.total.value == 25)
        #expect(!stapler.initialLoadAction.isExecuting.value)
        #expect(completed.value == 1)
        #expect(server.last?.disposeCount == 1)
    }

    @Test("the indicator becomes true when the second page starts loading and stays true until no pages are left")
    func nextPageIndicator() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let log = stapler.shouldShowNextPageActivityIndicator.recordValues()
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: 25))
        #expect(log.value == [false])
        stapler.loadNextPageIfNeeded()
        #expect(log.value == [false, true])
        server.last?.succeed(page(10, 10, total: 25))
        #expect(stapler.shouldShowNextPageActivityIndicator.value)
        stapler.loadNextPageIfNeeded()
        server.last?.succeed(page(20, 5, total: 25))
        #expect(log.value == [false, true, false])
        #expect(Array(stapler.items.value) == Array(0..<25))
        #expect(stapler.pages.value == 3)
    }

    @Test("P1: repeated loadNextPageIfNeeded calls while a page loads make one request, keyed by the count sent")
    func P1_repeatedCallsAreIgnored() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        for _ in 0..<100 { stapler.loadNextPageIfNeeded() }
        #expect(server.requests.isEmpty, "nothing before the first page")
        stapler.refreshAction.apply().start()
        for _ in 0..<100 { stapler.loadNextPageIfNeeded() }
        #expect(server.keys == [0], "nothing while the first page loads")
        server.last?.succeed(page(0, 10, total: 100))
        for _ in 0..<100 { stapler.loadNextPageIfNeeded() }
        #expect(server.keys == [0, 10])
        server.last?.succeed(page(10, 10, total: 100))
        for _ in 0..<100 { stapler.loadNextPageIfNeeded() }
        #expect(server.keys == [0, 10, 20])
    }

    @Test("P2: a refresh disposes a next-page load in flight and its late response is never applied")
    func P2_refreshDisposesNextPage() {
        for refreshAnswersFirst in [false, true] {
            let server = OffsetServer()
            let stapler = makeStapler(server: server)
            let appended = Locked(0)
            stapler.paginator.updates.observeValues { update in
                if case .appended = update.change { appended.increment(by: 1) }
            }
            stapler.refreshAction.apply().start()
            server.requests[0].succeed(page(0, 10, total: 100))
            stapler.loadNextPageIfNeeded()
            let nextPage = server.requests[1]
            stapler.refreshAction.apply().start()
            #expect(nextPage.disposeCount == 1)
            #expect(stapler.paginator.state.value == .refreshing)
            let refreshed = server.requests[2]
            if refreshAnswersFirst {
                refreshed.succeed(page(0, 10, total: 100, base: 1000))
                nextPage.succeed(page(10, 10, total: 100))
            } else {
                nextPage.succeed(page(10, 10, total: 100))
                #expect(Array(stapler.items.value) == Array(0..<10))
                refreshed.succeed(page(0, 10, total: 100, base: 1000))
            }
            #expect(Array(stapler.items.value) == Array(1000..<1010))
            #expect(stapler.pages.value == 1)
            #expect(appended.value == 0)
        }
    }

    @Test("P2: a response delivered after a refresh on another thread is dropped by the generation check")
    func P2_lateResponseOnAnotherThread() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        stapler.refreshAction.apply().start()
        server.requests[0].succeed(page(0, 10, total: 100))
        stapler.loadNextPageIfNeeded()
        let nextPage = server.requests[1]
        let errors = stapler.errorsAfterFirstPage.record()
        // The stale response is sent while the refresh is being announced, before its load is disposed,
        // from another thread: it reaches the engine, which must reject it.
        let sent = Locked(false)
        stapler.paginator.state.signal.observeValues { state in
            guard state == .refreshing, !sent.value else { return }
            sent.value = true
            nextPage.fail(.timeout, on: DispatchQueue(label: "late"))
            nextPage.succeed(page(10, 10, total: 100), on: DispatchQueue(label: "late"))
        }
        stapler.refreshAction.apply().start()
        #expect(sent.value)
        #expect(errors.events.isEmpty)
        server.requests[2].succeed(page(0, 3, total: 3, base: 500))
        #expect(Array(stapler.items.value) == [500, 501, 502])
        #expect(stapler.paginator.state.value == .data)
    }

    @Test("P1: loadNextPageIfNeeded from 8 threads at once requests each page exactly once")
    func P1_concurrentLoadNext() {
        for _ in 0..<20 {
            let server = OffsetServer()
            let stapler = makeStapler(server: server)
            stapler.refreshAction.apply().start()
            server.last?.succeed(page(0, 10, total: 1000))
            for round in 1...5 {
                raceFromBarrier(threads: 8) { _ in
                    for _ in 0..<200 { stapler.loadNextPageIfNeeded() }
                }
                #expect(server.keys.count == round + 1)
                server.last?.succeed(page(round * 10, 10, total: 1000), on: DispatchQueue(label: "server"))
            }
            #expect(server.keys == [0, 10, 20, 30, 40, 50])
            #expect(Array(stapler.items.value) == Array(0..<60))
        }
    }

    @Test("P13: a synchronous backend paged from inside the items observer loads 10,000 pages with a bounded stack")
    func P13_synchronousPagingFromObserver() {
        let pages = 10_000
        // 10,000 reentrant pages take about 5 s in a debug build and longer under a sanitizer on a 2-core
        // machine: the limit only tells a deadlock from slow progress.
        let finished = finishesWithin(seconds: 300, stackSize: 512 * 1024) {
            let stapler = Stapler<Response, ServerError>(pageSize: 1) { offset, _ in
                SignalProducer(value: Response(items: [offset], total: pages))
            }
            let states = Locked<[String]>([])
            stapler.paginator.state.signal.observeValues { states.append($0.name) }
            stapler.items.signal.observeValues { _ in stapler.loadNextPageIfNeeded() }
            stapler.initialLoadAction.apply().start()
            #expect(stapler.items.value.count == pages)
            #expect(Array(stapler.items.value) == Array(0..<pages))
            #expect(stapler.paginator.isEndReached.value)
            #expect(!stapler.initialLoadAction.isExecuting.value)
            let expected =
                ["refreshing", "data"] + Array(repeating: ["loadingMore", "data"], count: pages - 1).flatMap { $0 }
            #expect(states.value == expected)
        }
        #expect(finished, "deadlock or stack overflow")
    }

    @Test(
        "P9: a first-page error reaches the action's errors; a later one keeps the items and reaches errorsAfterFirstPage"
    )
    func P9_errorsAreSplit() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let initialErrors = stapler.initialLoadAction.errors.record()
        let laterErrors = stapler.errorsAfterFirstPage.record()
        stapler.initialLoadAction.apply().start()
        server.last?.fail(.unavailable)
        #expect(initialErrors.values == [.source(.unavailable)])
        #expect(stapler.paginator.state.value == .errorRefreshing(.source(.unavailable)))
        #expect(laterErrors.values.isEmpty)
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: 30))
        stapler.loadNextPageIfNeeded()
        server.last?.fail(.timeout)
        #expect(laterErrors.values == [.source(.timeout)])
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(stapler.paginator.state.value == .errorLoadingMore(.source(.timeout)))
        #expect(!stapler.shouldShowNextPageActivityIndicator.value)
        #expect(initialErrors.values.count == 1)
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 0, 10, 10], "the facade's loadNextPageIfNeeded asks for the failed page again")
        server.last?.succeed(page(10, 10, total: 30))
        #expect(Array(stapler.items.value) == Array(0..<20))
        #expect(stapler.shouldShowNextPageActivityIndicator.value)
    }

    @Test("P19: initialLoadAction and refreshAction share one first-page slot; the later supersedes the earlier")
    func P19_sharedFirstPageSlot() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let (initial, _) = stapler.initialLoadAction.apply().record()
        let (refresh, _) = stapler.refreshAction.apply().record()
        #expect(server.requests[0].isDisposed)
        #expect(initial.events.map(\.description) == ["interrupted"])
        #expect(!stapler.initialLoadAction.isExecuting.value)
        server.requests[0].succeed(page(0, 10, total: 10, base: 100))
        server.requests[1].succeed(page(0, 10, total: 10))
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(refresh.events.map(\.description) == ["value(())", "completed"])
    }

    @Test("P16: releasing the Stapler with a load in flight frees it and disposes the load")
    func P16_releaseWithLoadInFlight() {
        let server = OffsetServer()
        weak var weakStapler: Stapler<Response, ServerError>?
        do {
            let stapler = makeStapler(server: server)
            weakStapler = stapler
            stapler.initialLoadAction.apply().start()
        }
        #expect(weakStapler == nil)
        #expect(server.last?.disposeCount == 1)
        server.last?.succeed(page(0, 10, total: 10), on: DispatchQueue(label: "late"))
    }

    @Test("the async initializer pages an async backend")
    func asyncRequest() async {
        let stapler = Stapler<Response, ServerError>(pageSize: 4) { offset, size async throws(ServerError) in
            Response(items: Array(offset..<min(offset + size, 10)), total: 10)
        }
        stapler.initialLoadAction.apply().start()
        #expect(await eventually { stapler.items.value.count == 4 })
        stapler.loadNextPageIfNeeded()
        #expect(await eventually { stapler.items.value.count == 8 })
        stapler.loadNextPageIfNeeded()
        #expect(await eventually { stapler.items.value.count == 10 && stapler.paginator.isEndReached.value })
        #expect(Array(stapler.items.value) == Array(0..<10))
    }

    @Test("P17: a page size below 1 traps with a message naming pageSize")
    func P17_pageSizeTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Stapler<Response, ServerError>(pageSize: 0) { _, _ in .never }
        }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Stapler<Response, ServerError>(pageSize: 0) { _, _ in .never }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("pageSize"))
    }
}
