import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// Seed 002 (neekeetab/Stapler): its README's view-model flow and its public interface documentation,
/// sentence by sentence, in our facade, with the decisions StateMachine.md takes on its quirks.
///
/// `StaplerFacadeTests` already covers the first load, the indicator's basic path, repeated calls (P1),
/// refresh against a next page (P2), split errors (P9), `initialLoadAction` superseded by `refreshAction`
/// (P19), release (P16), the async initializer and the page-size trap; this suite complements it.
@Suite("Stapler (seed 002)")
struct StaplerSeedTests {
    /// The README's response: it conforms to `PaginatedResponse` (our counts are `Int`, decision 9).
    struct ItemsResponse: PaginatedResponse, Equatable {
        let total: Int
        let items: [Int]
    }

    /// The README's `NetworkService`, over a hand-driven server that records `(offset, size)`.
    final class NetworkService: Sendable {
        let server = ManualServer<Call<Int, Int>, ItemsResponse, ServerError>()

        func items(offset: Int, size: Int) -> SignalProducer<ItemsResponse, ServerError> {
            server.producer(Call(offset, size), size: size)
        }

        /// Answers the latest request with items `offset..<offset+count` (plus `base`) of `total`.
        func answer(_ offset: Int, _ count: Int, total: Int, base: Int = 0) {
            server.last?.succeed(ItemsResponse(total: total, items: Array(base + offset..<base + offset + count)))
        }
    }

    /// The README's view model: three lines.
    final class ViewModel: Sendable {
        let stapler: Stapler<ItemsResponse, ServerError>

        init(service: NetworkService) {
            stapler = Stapler(pageSize: 10) { offset, size in
                service.items(offset: offset, size: size)
            }
        }
    }

    /// The README's view model over the kit's fake: the network service's `items(offset:size:)` is the
    /// fake's offset endpoint, and every failure of the fake is `failure`.
    static func stapler(
        _ server: TestPageSource<Int, Void>, failure: ServerError = .timeout
    ) -> Stapler<ItemsResponse, ServerError> {
        Stapler(pageSize: 10) { offset, size in
            server.loadOffset(offset, size: size, query: ())
                .map { ItemsResponse(total: $0.total, items: $0.items) }
                .mapError(server.appFailures { _ in failure })
        }
    }

    /// The demo's table: it displays rows and calls `loadNextPageIfNeeded()` when the last one appears.
    struct Table {
        let stapler: Stapler<ItemsResponse, ServerError>

        func display(rows: Range<Int>) {
            for row in rows where row == stapler.items.value.count - 1 {
                stapler.loadNextPageIfNeeded()
            }
        }
    }

    @Test("the README's flow: initial load, the last row's display loads each next page, pull to refresh")
    func readmeFlow() {
        let service = NetworkService()
        let viewModel = ViewModel(service: service)
        let stapler = viewModel.stapler
        let table = Table(stapler: stapler)
        let snapshots = stapler.items.recordValues()
        let pages = stapler.pages.recordValues()
        let totals = stapler.total.recordValues()
        stapler.initialLoadAction.apply().start()  // viewDidLoad
        table.display(rows: 0..<10)
        service.answer(0, 10, total: 25)
        table.display(rows: 0..<9)
        #expect(service.server.keys == [Call(0, 10)], "only the last row's display loads")
        table.display(rows: 9..<10)
        table.display(rows: 0..<10)
        service.answer(10, 10, total: 25)
        table.display(rows: 10..<20)
        service.answer(20, 5, total: 25)
        table.display(rows: 0..<25)
        stapler.refreshAction.apply().start()  // pull to refresh
        table.display(rows: 0..<25)
        service.answer(0, 10, total: 26, base: 100)
        #expect(service.server.keys == [Call(0, 10), Call(10, 10), Call(20, 10), Call(0, 10)])
        #expect(Array(stapler.items.value) == Array(100..<110))
        #expect(snapshots.value.map(\.count) == [0, 10, 20, 25, 10])
        #expect(pages.value == [0, 1, 2, 3, 1])
        #expect(totals.value == [0, 25, 26])
        #expect(service.server.requests.allSatisfy { $0.disposeCount == 1 })
    }

    @Test("initialLoadAction gives the first load its own indicator; starting with refreshAction is just as safe")
    func initialLoadHasItsOwnIndicator() {
        for startsWithRefresh in [false, true] {
            let service = NetworkService()
            let stapler = ViewModel(service: service).stapler
            let initialRuns = stapler.initialLoadAction.isExecuting.recordValues()
            let refreshRuns = stapler.refreshAction.isExecuting.recordValues()
            let first = startsWithRefresh ? stapler.refreshAction : stapler.initialLoadAction
            first.apply().start()
            #expect(!stapler.shouldShowNextPageActivityIndicator.value, "the first page's indicator is the action's")
            service.answer(0, 10, total: 30)
            #expect(initialRuns.value == (startsWithRefresh ? [false] : [false, true, false]))
            #expect(refreshRuns.value == (startsWithRefresh ? [false, true, false] : [false]))
            #expect(Array(stapler.items.value) == Array(0..<10))
            #expect(stapler.pages.value == 1 && stapler.total.value == 30)
            stapler.loadNextPageIfNeeded()
            #expect(service.server.keys == [Call(0, 10), Call(10, 10)])
        }
    }

    @Test("refreshAction reloads the first page only; the rest loads through loadNextPageIfNeeded()")
    func refreshLoadsFirstPageOnly() {
        // The refresh gets the next list, the same length with other items.
        let server = TestPageSource(lists: [Array(0..<40), Array(1_000..<1_040)], delivery: .synchronous)
        let stapler = Self.stapler(server)
        stapler.initialLoadAction.apply().start()
        for _ in 0..<2 { stapler.loadNextPageIfNeeded() }
        let completed = stapler.refreshAction.completed.record()
        stapler.refreshAction.apply().start()
        #expect(completed.values.count == 1)
        #expect(server.requests.map(\.offset) == [0, 10, 20, 0], "no page after the first one")
        #expect(Array(stapler.items.value) == Array(1_000..<1_010))
        #expect(stapler.pages.value == 1)
        stapler.loadNextPageIfNeeded()
        #expect(server.requests.map(\.offset) == [0, 10, 20, 0, 10])
    }

    @Test("items, pages and total start empty and at 0, then follow every response; an empty last page counts")
    func propertiesFollowResponses() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        #expect(stapler.items.value.isEmpty && stapler.pages.value == 0 && stapler.total.value == 0)
        let pages = stapler.pages.recordValues()
        let totals = stapler.total.recordValues()
        stapler.initialLoadAction.apply().start()
        service.answer(0, 10, total: 30)
        stapler.loadNextPageIfNeeded()
        service.answer(10, 10, total: 35)
        stapler.loadNextPageIfNeeded()
        service.answer(20, 0, total: 35)
        #expect(pages.value == [0, 1, 2, 3])
        #expect(totals.value == [0, 30, 35])
        #expect(Array(stapler.items.value) == Array(0..<20))
        #expect(stapler.paginator.isEndReached.value)
    }

    @Test("decision 8: the indicator is false until the second page starts, false on an error and after the last")
    func decision8_indicatorFollowsTheDocumentation() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        let shown = stapler.shouldShowNextPageActivityIndicator.recordValues()
        stapler.initialLoadAction.apply().start()
        service.answer(0, 10, total: 40)
        #expect(shown.value == [false], "the first page is not a next page")
        stapler.loadNextPageIfNeeded()
        #expect(shown.value == [false, true], "true at the start of the second page's load")
        service.answer(10, 10, total: 40)
        stapler.loadNextPageIfNeeded()
        server(service).fail(.timeout)
        #expect(shown.value == [false, true, false], "false while the failed page waits (a retry footer shows)")
        stapler.loadNextPageIfNeeded()
        service.answer(20, 10, total: 40)
        #expect(shown.value == [false, true, false, true], "true again while pages are left")
        stapler.refreshAction.apply().start()
        service.answer(0, 10, total: 20)
        #expect(shown.value == [false, true, false, true, false], "false during and after a refresh's first page")
        stapler.loadNextPageIfNeeded()
        service.answer(10, 10, total: 20)
        #expect(shown.value == [false, true, false, true, false, true, false], "false once no pages are left")
        #expect(service.server.keys.map(\.key) == [0, 10, 20, 20, 0, 10])
    }

    @Test("a refresh's first-page error reaches refreshAction.errors only, and the loaded items stay")
    func refreshErrorsReachTheRefreshAction() {
        // The refresh's load, the second request, fails.
        let server = TestPageSource(Array(0..<30), delivery: .synchronous, failures: [.atRequest(2)])
        let stapler = Self.stapler(server, failure: .unavailable)
        let initialErrors = stapler.initialLoadAction.errors.record()
        let refreshErrors = stapler.refreshAction.errors.record()
        let laterErrors = stapler.errorsAfterFirstPage.record()
        stapler.initialLoadAction.apply().start()
        stapler.refreshAction.apply().start()
        #expect(refreshErrors.values == [.source(.unavailable)])
        #expect(initialErrors.values.isEmpty && laterErrors.values.isEmpty)
        #expect(Array(stapler.items.value) == Array(0..<10), "decision 5: a failed refresh keeps the items")
        #expect(stapler.paginator.state.value == .errorRefreshing(.source(.unavailable)))
        stapler.loadNextPageIfNeeded()
        #expect(server.requests.map(\.offset) == [0, 0], "no next page after a failed refresh")
    }

    @Test("loadNextPageIfNeeded has no effect with no pages left, before the first page, or during a refresh")
    func loadNextPageIfNeededIgnoresCalls() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        let snapshots = stapler.paginator.snapshot.recordValues()
        for _ in 0..<20 { stapler.loadNextPageIfNeeded() }
        stapler.initialLoadAction.apply().start()
        for _ in 0..<20 { stapler.loadNextPageIfNeeded() }
        service.answer(0, 10, total: 10)
        let published = snapshots.value.count
        for _ in 0..<100 { stapler.loadNextPageIfNeeded() }
        #expect(snapshots.value.count == published, "a call with no pages left changes nothing")
        stapler.refreshAction.apply().start()
        for _ in 0..<20 { stapler.loadNextPageIfNeeded() }
        #expect(service.server.keys.map(\.key) == [0, 0])
        #expect(names(snapshots.value.map(\.state)) == ["uninitialized", "refreshing", "data", "refreshing"])
    }

    @Test("decision 4: initialLoadAction started during a refresh supersedes it; only its page is applied")
    func decision4_initialLoadSupersedesRefresh() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        let (refresh, _) = stapler.refreshAction.apply().record()
        let (initial, _) = stapler.initialLoadAction.apply().record()
        #expect(refresh.events.map(\.description) == ["interrupted"])
        #expect(service.server.requests[0].disposeCount == 1)
        #expect(!stapler.refreshAction.isExecuting.value && stapler.initialLoadAction.isExecuting.value)
        service.server.requests[0].succeed(ItemsResponse(total: 10, items: Array(500..<510)))
        service.server.requests[1].succeed(ItemsResponse(total: 10, items: Array(0..<10)))
        #expect(initial.events.map(\.description) == ["value(())", "completed"])
        #expect(Array(stapler.items.value) == Array(0..<10))
        #expect(stapler.pages.value == 1)
    }

    @Test("decision 4: a busy action refuses a second start, and disposing a run cancels its load")
    func decision4_actionRunsAreSerial() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        let disposable = stapler.refreshAction.apply().start()
        let (second, _) = stapler.refreshAction.apply().record()
        #expect(second.events.map(\.description) == ["failed(disabled)"])
        #expect(service.server.keys.count == 1)
        disposable.dispose()
        #expect(service.server.requests[0].disposeCount == 1)
        #expect(!stapler.refreshAction.isExecuting.value)
        #expect(stapler.paginator.state.value == .uninitialized, "a cancelled first load undoes the refresh")
        stapler.refreshAction.apply().start()
        service.answer(0, 10, total: 20)
        #expect(Array(stapler.items.value) == Array(0..<10))
    }

    @Test("decision 6: after a later page's error rows shown again request nothing; loadNextPageIfNeeded asks once")
    func decision6_noAutomaticRetry() {
        let service = NetworkService()
        let stapler = ViewModel(service: service).stapler
        stapler.initialLoadAction.apply().start()
        service.answer(0, 10, total: 30)
        stapler.loadNextPageIfNeeded()
        server(service).fail(.timeout)
        for row in 0..<10 {
            for _ in 0..<5 { stapler.paginator.preload(index: row) }
        }
        stapler.paginator.loadNextPage()
        #expect(service.server.keys.map(\.key) == [0, 10], "rows displayed again after an error request nothing")
        for _ in 0..<50 { stapler.loadNextPageIfNeeded() }
        #expect(service.server.keys == [Call(0, 10), Call(10, 10), Call(10, 10)], "the same offset, once")
        service.answer(10, 10, total: 30)
        #expect(Array(stapler.items.value) == Array(0..<20))
        #expect(stapler.paginator.state.value == .data)
    }

    /// The latest request of `service`.
    private func server(_ service: NetworkService) -> ManualServer<Call<Int, Int>, ItemsResponse, ServerError>.Request {
        service.server.last!
    }
}
