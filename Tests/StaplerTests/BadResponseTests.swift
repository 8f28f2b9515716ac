import Reactive
import Stapler
import TestSupport
import Testing

/// Whatever a server sends never traps: each bad response has a documented outcome, and nothing
/// already loaded is lost.
@Suite("Bad responses")
struct BadResponseTests {
    /// A Stapler whose first page (0..<10 of `total`) is loaded.
    func loaded(total: Int = 30) -> (Stapler<Response, ServerError>, OffsetServer) {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: total))
        return (stapler, server)
    }

    @Test("P7: a total that shrinks below the loaded count ends the list and removes nothing")
    func P7_totalShrinks() {
        let (stapler, server) = loaded(total: 30)
        stapler.loadNextPageIfNeeded()
        server.last?.succeed(page(10, 10, total: 15))
        #expect(Array(stapler.items.value) == Array(0..<20))
        #expect(stapler.total.value == 15)
        #expect(stapler.paginator.isEndReached.value)
        #expect(!stapler.shouldShowNextPageActivityIndicator.value)
        for _ in 0..<10 { stapler.loadNextPageIfNeeded() }
        stapler.paginator.preload(index: 1_000)
        #expect(server.keys == [0, 10])
    }

    @Test("P7: a negative total is an invalidTotal error that keeps the items")
    func P7_negativeTotal() {
        let (stapler, server) = loaded()
        let errors = stapler.errorsAfterFirstPage.record()
        stapler.loadNextPageIfNeeded()
        server.last?.succeed(page(10, 10, total: -1))
        #expect(stapler.paginator.state.value == .errorLoadingMore(.invalidTotal(-1)))
        #expect(errors.values == [.invalidTotal(-1)])
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(stapler.total.value == 30)
    }

    @Test("P7: a negative total on the first page is a first-page error")
    func P7_negativeTotalFirstPage() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let errors = stapler.refreshAction.errors.record()
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: -5))
        #expect(stapler.paginator.state.value == .errorRefreshing(.invalidTotal(-5)))
        #expect(errors.values == [.invalidTotal(-5)])
        #expect(stapler.items.value.isEmpty)
    }

    @Test("P6: a page longer than asked is accepted whole and the next offset counts it")
    func P6_longPage() {
        let (stapler, server) = loaded(total: 40)
        stapler.loadNextPageIfNeeded()
        server.last?.succeed(page(10, 12, total: 40))
        #expect(stapler.items.value.count == 22)
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10, 22])
    }

    @Test("P6: a server that caps pages below the page size is paged by the count it sends")
    func P6_shortPages() {
        let stapler = Stapler<Response, ServerError>(pageSize: 10) { offset, _ in
            SignalProducer(value: page(offset, min(7, 30 - offset), total: 30))
        }
        let requested = Locked<[Int]>([])
        stapler.paginator.state.signal.observeValues { _ in }
        stapler.items.signal.observeValues { items in requested.append(items.count) }
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        #expect(Array(stapler.items.value) == Array(0..<30))
        #expect(requested.value == [7, 14, 21, 28, 30])
    }

    @Test("P5: an empty page before the total ends the list; further calls request nothing")
    func P5_emptyPageEndsTheList() {
        let (stapler, server) = loaded(total: 100)
        stapler.loadNextPageIfNeeded()
        server.last?.succeed(Response(items: [], total: 100))
        #expect(stapler.paginator.isEndReached.value)
        #expect(stapler.paginator.state.value == .data)
        #expect(!stapler.shouldShowNextPageActivityIndicator.value)
        for _ in 0..<10 { stapler.loadNextPageIfNeeded() }
        #expect(server.keys == [0, 10])
        #expect(Array(stapler.items.value) == Array(0..<10))
    }

    @Test("P5: a huge total does not overflow")
    func P5_hugeTotal() {
        let (stapler, server) = loaded(total: Int.max)
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10])
        server.last?.succeed(page(10, 10, total: Int.max))
        #expect(stapler.items.value.count == 20)
    }

    @Test("P12: a request that completes with no value is a noPage error, with no re-request loop")
    func P12_noValue() {
        let (stapler, server) = loaded()
        stapler.paginator.loadNextPage()
        server.last?.complete()
        #expect(stapler.paginator.state.value == .errorLoadingMore(.noPage))
        for _ in 0..<10 {
            stapler.paginator.loadNextPage()
            stapler.paginator.preload(index: 9)
        }
        #expect(server.keys == [0, 10])
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(server.last?.disposeCount == 1)
    }

    @Test("P12: a first page that completes with no value is a first-page noPage error")
    func P12_noValueFirstPage() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let errors = stapler.initialLoadAction.errors.record()
        stapler.initialLoadAction.apply().start()
        server.last?.complete()
        #expect(errors.values == [.noPage])
        #expect(stapler.paginator.state.value == .errorRefreshing(.noPage))
    }

    @Test("P12: a request that sends two values applies the first and is disposed")
    func P12_twoValues() {
        let (stapler, server) = loaded()
        stapler.loadNextPageIfNeeded()
        let request = server.last!
        request.send(page(10, 10, total: 30))
        request.send(page(20, 10, total: 30, base: 500))
        #expect(request.disposeCount == 1)
        #expect(stapler.pages.value == 2)
        #expect(Array(stapler.items.value) == Array(0..<20))
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10, 20])
    }

    @Test("P12: a value then an error applies the value and ignores the error")
    func P12_valueThenError() {
        let (stapler, server) = loaded()
        let errors = stapler.errorsAfterFirstPage.record()
        stapler.loadNextPageIfNeeded()
        let request = server.last!
        request.send(page(10, 10, total: 30))
        request.fail(.unavailable)
        #expect(errors.values.isEmpty)
        #expect(stapler.paginator.state.value == .data)
        #expect(Array(stapler.items.value) == Array(0..<20))
    }

    @Test("P12: a producer that sends a value and never completes still works")
    func P12_valueWithoutCompletion() {
        let (stapler, server) = loaded()
        stapler.loadNextPageIfNeeded()
        server.last?.send(page(10, 10, total: 30))
        #expect(stapler.paginator.state.value == .data)
        stapler.loadNextPageIfNeeded()
        #expect(server.keys == [0, 10, 20])
    }

    @Test("P11: interruption by the source itself is not an error: a later page returns to data")
    func P11_sourceInterrupts() {
        let stapler = Stapler<Response, ServerError>(pageSize: 10) { offset, _ in
            offset == 0
                ? SignalProducer(value: page(0, 10, total: 30))
                : SignalProducer { observer, _ in observer.sendInterrupted() }
        }
        let errors = stapler.errorsAfterFirstPage.record()
        stapler.refreshAction.apply().start()
        stapler.loadNextPageIfNeeded()
        #expect(stapler.paginator.state.value == .data)
        #expect(errors.values.isEmpty)
    }
}
