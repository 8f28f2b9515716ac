import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// Seed 003 (LeadKit 0.7 pagination): the README's pizza list, step by step, in our API.
///
/// A `TotalCountCursor` configured by a pizza type asks for numbered pages (from 1) until the loaded
/// count reaches the total; resetting the configuration keeps the type and starts again. A single-load
/// cursor serves lists without pagination. The `PaginationWrapperDelegate` supplies the data callbacks
/// and the placeholders, indicators and retry footer, with default implementations; here the data
/// callbacks are `updates` and the rest is a `ListPresenter`.
@Suite("LeadKit pagination (seed 003)")
struct LeadKitSeedTests {
    enum PizzaType: String, Equatable, Sendable {
        case margherita
        case pepperoni
    }

    struct Pizza: Equatable, Sendable, CustomStringConvertible {
        let id: Int
        let type: PizzaType

        var description: String { "\(type.rawValue)#\(id)" }
    }

    /// The README's `PaginatedResponse<Pizza>`: a `TotalCountCursorListingResult` (results, totalCount).
    struct PizzaPage: NumberedPageResponse, Equatable {
        let results: [Pizza]
        let totalCount: Int

        var items: [Pizza] { results }
        var itemCount: Int? { totalCount }
    }

    /// The errors of `PizzaNetworkService`: API errors with a code, and everything else.
    enum PizzaError: Error, Equatable {
        case api(code: Int)
        case network
    }

    typealias Server = ManualServer<Call<Int, PizzaType>, PizzaPage, PizzaError>
    typealias PizzaPaginator = Paginator<Pizza, PageNumberKey, PizzaType, PizzaPage, PizzaError>

    /// The README's `PizzaListingCursor(pizzaType:)`: `pizzaListing(pizzaType:page:)` from page 1, the
    /// type as the query; `init(resetFrom:)` is `refresh()`, which keeps the type and restarts the page.
    static func pizzaListingCursor(_ server: Server, pizzaType: PizzaType) -> PizzaPaginator {
        PizzaPaginator(
            source: .pageNumber(firstPage: 1) { page, size, type in server.producer(Call(page, type), size: size) },
            pageSize: 2, query: pizzaType)
    }

    typealias FakeServer = TestPageSource<Pizza, PizzaType>

    /// The cursor over the kit's fake: `pizzaListing(pizzaType:page:)` answers the fake's numbered pages of
    /// the type's list, the fake's item count is the total, and every failure of the fake is `failure`.
    static func pizzaListingCursor(
        _ server: FakeServer, pizzaType: PizzaType, failure: PizzaError = .network
    ) -> PizzaPaginator {
        PizzaPaginator(
            source: .pageNumber(firstPage: 1) { page, size, type in
                server.loadPage(page, size: size, query: type)
                    .map { PizzaPage(results: $0.items, totalCount: $0.itemCount ?? 0) }
                    .mapError(server.appFailures { _ in failure })
            }, pageSize: 2, query: pizzaType)
    }

    /// Answers the latest request with the pizzas `ids` of a list of `total`.
    static func answer(_ server: Server, _ ids: ClosedRange<Int>?, total: Int) {
        let type = server.last!.key.query
        let pizzas = (ids.map(Array.init) ?? []).map { Pizza(id: $0, type: type) }
        server.last?.succeed(PizzaPage(results: pizzas, totalCount: total))
    }

    /// The view controller's `PaginationWrapperDelegate` customisations, as a presenter.
    struct PizzaPresenter: ListPresenter, Sendable {
        /// API errors with these codes are handled with an alert (`customInitialLoadingErrorHandling`).
        var alertCodes: Set<Int> = []
        /// Every error offered to the custom handling, in order.
        let offered = Locked<[PagingError<PizzaError>]>([])

        func makeMessage(_ text: String) -> Shown { .text(text) }
        func makeActivityIndicator() -> Shown { .indicator("UIActivityIndicatorView") }
        func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> Shown {
            .button(title, press: retry)
        }

        func makeEmptyPlaceholder() -> Shown { .text("EmptyContentPlaceholder") }

        func makeErrorPlaceholder(for error: PagingError<PizzaError>) -> Shown {
            if case .source(.api(let code)) = error { return .text("ApiErrorPlaceholder(\(code))") }
            return .text("UnknownErrorPlaceholder")
        }

        func handlesInitialError(_ error: PagingError<PizzaError>) -> Bool {
            offered.append(error)
            guard case .source(.api(let code)) = error else { return false }
            return alertCodes.contains(code)  // UIAlertController.showApiErrorAlert(for: self)
        }

        func makeInitialLoadingIndicator() -> Shown { .indicator("whiteLarge") }
        func makeLoadingMoreIndicator() -> Shown { .indicator("gray") }

        func makeRetryFooter(for error: PagingError<PizzaError>, retry: @escaping @Sendable () -> Void) -> Shown {
            .button("RetryLoadMoreButton", press: retry)
        }
    }

    static func pizzas(_ ids: ClosedRange<Int>, _ type: PizzaType = .margherita) -> [Pizza] {
        ids.map { Pizza(id: $0, type: type) }
    }

    @Test("the README's flow: the total-count cursor pages one pizza type until the total, through the delegate")
    func readmeFlow() {
        let server = FakeServer(query: PizzaType.self, delivery: .synchronous) { type in Self.pizzas(1...5, type) }
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let changes = cursor.recordChanges()
        cursor.refresh()
        for _ in 0..<7 { cursor.loadNextPage() }  // two pages to the total, then five calls past it
        #expect(
            server.requests.map { Call(Int($0.key)!, $0.query) } == [
                Call(1, .margherita), Call(2, .margherita), Call(3, .margherita),
            ])
        #expect(cursor.isEndReached.value, "exhausted once the loaded count reaches the total")
        #expect(cursor.total.value == 5)
        #expect(
            changes.value == [
                .reloaded(Self.pizzas(1...2)),  // paginationWrapper(didReload: allItems)
                .appended(Self.pizzas(3...4), at: 2..<4),  // paginationWrapper(didLoad: newItems)
                .appended(Self.pizzas(5...5), at: 4..<5),
            ])
    }

    @Test(
        "resetting the configuration: refresh() keeps the pizza type and restarts the page; refresh(query:) changes it")
    func resettingTheConfiguration() {
        let server = Server()
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let changes = cursor.recordChanges()
        cursor.refresh()
        Self.answer(server, 1...2, total: 4)
        cursor.loadNextPage()
        Self.answer(server, 3...4, total: 4)
        cursor.refresh()
        Self.answer(server, 1...2, total: 3)
        cursor.refresh(query: .pepperoni)
        Self.answer(server, nil, total: 0)
        cursor.refresh(query: .margherita)
        Self.answer(server, 7...8, total: 3)
        cursor.loadNextPage()
        #expect(
            server.keys == [
                Call(1, .margherita), Call(2, .margherita), Call(1, .margherita), Call(1, .pepperoni),
                Call(1, .margherita), Call(2, .margherita),
            ])
        #expect(
            changes.value == [
                .reloaded(Self.pizzas(1...2)), .appended(Self.pizzas(3...4), at: 2..<4), .reloaded(Self.pizzas(1...2)),
                .cleared,  // clearView()
                .reloaded(Self.pizzas(7...8)),
            ])
    }

    @Test("the single-load cursor: one request gives the whole list, which ends there")
    func singleLoadCursor() {
        // The whole list, then an empty one from the next refresh on.
        let server = TestPageSource(lists: [Self.pizzas(1...30), []], delivery: .synchronous)
        let cursor = Paginator(source: server.singleLoad(), pageSize: 20)
        cursor.refresh()
        for row in 0..<30 { cursor.preload(index: row) }
        for _ in 0..<5 { cursor.loadNextPage() }
        #expect(server.requestCount == 1)
        #expect(cursor.items.value.count == 30, "the page size does not cut a single load")
        #expect(cursor.isEndReached.value && cursor.state.value == .data)
        #expect(cursor.presentation.value == .content(ListContent(itemCount: 30, footer: .end)))
        cursor.refresh()
        #expect(server.requestCount == 2)
        #expect(cursor.presentation.value == .empty)
    }

    @Test("without pagination only the errors and the empty result need handling: both have their placeholders")
    func singleLoadPlaceholders() {
        // The first load fails with an API error 500; the retry gets the empty list.
        let server = TestPageSource<Pizza, Void>([], delivery: .synchronous, failures: [.atRequest(1)])
        let cursor = Paginator<Pizza, Int, Void, Void, PizzaError>(
            source: .singleLoad { _ in server.loadAll(query: ()).mapError(server.appFailures { _ in .api(code: 500) })
            },
            pageSize: 20)
        let rendered = cursor.recordRendering(with: PizzaPresenter())
        cursor.refresh()
        cursor.retry()
        #expect(
            rendered.value == [
                RenderedList(), RenderedList(background: .indicator("whiteLarge")),
                RenderedList(background: .text("ApiErrorPlaceholder(500)")),
                RenderedList(background: .indicator("whiteLarge")),
                RenderedList(background: .text("EmptyContentPlaceholder")),
            ])
    }

    @Test("an empty result shows the empty placeholder, after the first request and after a pull-to-refresh")
    func makeEmptyPlaceholder() {
        // Each refresh gets the next list: empty, two pizzas, empty again.
        let server = FakeServer(lists: [[], Self.pizzas(1...2), []], query: PizzaType.self, delivery: .synchronous)
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let rendered = cursor.recordRendering(with: PizzaPresenter())
        cursor.refresh()
        cursor.refresh()
        cursor.refresh()
        #expect(
            rendered.value == [
                RenderedList(), RenderedList(background: .indicator("whiteLarge")),
                RenderedList(background: .text("EmptyContentPlaceholder")),
                RenderedList(background: .indicator("whiteLarge")), RenderedList(rowCount: 2),
                RenderedList(rowCount: 2, isRefreshing: true),
                RenderedList(background: .text("EmptyContentPlaceholder")),
            ])
    }

    @Test("a first-page error shows the placeholder of its error type; a failed pull-to-refresh over rows keeps them")
    func errorPlaceholderPerErrorType() {
        let server = Server()
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let rendered = cursor.recordRendering(with: PizzaPresenter())
        cursor.refresh()
        server.last?.fail(.api(code: 503))
        cursor.refresh()
        server.last?.fail(.network)
        cursor.refresh()
        server.last?.complete()
        cursor.refresh()
        Self.answer(server, 1...2, total: 4)
        cursor.refresh()
        server.last?.fail(.api(code: 503))
        let loading = RenderedList<Shown>(background: .indicator("whiteLarge"))
        #expect(
            rendered.value == [
                RenderedList(), loading, RenderedList(background: .text("ApiErrorPlaceholder(503)")), loading,
                RenderedList(background: .text("UnknownErrorPlaceholder")), loading,
                RenderedList(background: .text("UnknownErrorPlaceholder")), loading,
                RenderedList(rowCount: 2, footer: .indicator("gray")), RenderedList(rowCount: 2, isRefreshing: true),
                // LeadKit clears the rows here; we keep them with a notice (decision 3 of StateMachine.md: a failed refresh keeps the rows).
                RenderedList(rowCount: 2, notice: .text("Could not refresh: source error: api(code: 503)")),
            ])
    }

    @Test("custom initial-error handling suppresses the placeholder for the errors it handles, never for later pages")
    func customInitialErrorHandling() {
        let server = Server()
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let presenter = PizzaPresenter(alertCodes: [401])
        let rendered = cursor.recordRendering(with: presenter)
        cursor.refresh()
        server.last?.fail(.api(code: 401))
        #expect(rendered.value.last == RenderedList(), "handled with an alert: no placeholder")
        cursor.refresh()
        server.last?.fail(.api(code: 500))
        #expect(rendered.value.last == RenderedList(background: .text("ApiErrorPlaceholder(500)")))
        cursor.refresh()
        Self.answer(server, 1...2, total: 4)
        cursor.loadNextPage()
        server.last?.fail(.api(code: 401))
        #expect(rendered.value.last?.footer == .button("RetryLoadMoreButton") {})
        #expect(rendered.value.last?.background == nil)
        #expect(presenter.offered.value == [.source(.api(code: 401)), .source(.api(code: 500))])
    }

    @Test("the initial loading indicator, the loading-more indicator and the retry footer, each where it belongs")
    func indicatorsAndRetryFooter() {
        // The second request fails with a network error.
        let server = FakeServer(
            lists: [Self.pizzas(1...5)], query: PizzaType.self, delivery: .synchronous, failures: [.atRequest(2)])
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let rendered = cursor.recordRendering(with: PizzaPresenter())
        cursor.refresh()
        cursor.loadNextPage()
        rendered.value.last?.footer?.press()
        cursor.loadNextPage()
        let gray = Shown.indicator("gray")
        #expect(
            rendered.value == [
                RenderedList(), RenderedList(background: .indicator("whiteLarge")),
                RenderedList(rowCount: 2, footer: gray), RenderedList(rowCount: 2, footer: gray),
                RenderedList(rowCount: 2, footer: .button("RetryLoadMoreButton") {}),
                RenderedList(rowCount: 2, footer: gray), RenderedList(rowCount: 4, footer: gray),
                RenderedList(rowCount: 4, footer: gray), RenderedList(rowCount: 5),
            ])
        #expect(server.requests.compactMap { Int($0.key) } == [1, 2, 2, 3])
    }

    @Test("the retry footer loads the failed page again, never a reload, and a press makes one request however often")
    func retryFooterLoadsMore() {
        let server = Server()
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let rendered = cursor.recordRendering(with: PizzaPresenter())
        cursor.refresh()
        Self.answer(server, 1...2, total: 6)
        cursor.loadNextPage()
        server.last?.fail(.network)
        let footer = rendered.value.last?.footer
        for _ in 0..<5 { footer?.press() }
        #expect(server.keys == [Call(1, .margherita), Call(2, .margherita), Call(2, .margherita)])
        #expect(cursor.state.value == .loadingMore)
        #expect(Array(cursor.items.value) == Self.pizzas(1...2))
    }

    @Test("later-page errors never show the full-screen placeholder, whatever their type")
    func laterErrorsNeverShowThePlaceholder() {
        let server = Server()
        let cursor = Self.pizzaListingCursor(server, pizzaType: .margherita)
        let presenter = PizzaPresenter(alertCodes: [401])
        let rendered = cursor.recordRendering(with: presenter)
        cursor.refresh()
        Self.answer(server, 1...2, total: 10)
        let loaded = rendered.value.count
        cursor.loadNextPage()
        for failure in [PizzaError.api(code: 401), .api(code: 500), .network] {
            server.last?.fail(failure)
            cursor.retry()
        }
        server.last?.complete()
        let afterData = rendered.value.dropFirst(loaded - 1)
        #expect(afterData.allSatisfy { $0.background == nil && $0.rowCount == 2 })
        #expect(afterData.filter { $0.footer == .button("RetryLoadMoreButton") {} }.count == 4)
        #expect(presenter.offered.value.isEmpty, "the custom handling is never asked about later pages")
        #expect(Array(cursor.items.value) == Self.pizzas(1...2))
    }
}
