import Dispatch
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// Seed 000 (TIPagination): the README's bank list, step by step, in our API.
///
/// Its cursor counts pages from 1 and says when it is exhausted (`pagesRemaining < 1`); its pages carry a
/// default bank beside the items; its data delegate hears `didLoad(newPage)`, `didReloadWith(page)` and
/// `clearContent()`; its default UI delegate shows every state; `reload()` resets the cursor and
/// `retry()` reloads or loads more depending on the error.
@Suite("TIPagination (seed 000)")
struct TIPaginationSeedTests {
    struct Bank: Equatable, Sendable {
        let name: String
    }

    /// The README's `BanksPage`: the page's items and the fields beyond them.
    struct BanksPage: ExhaustiblePageResponse, Equatable {
        let pagesRemaining: Int
        let pageItems: [Bank]
        let defaultBank: Bank?

        var items: [Bank] { pageItems }
        var isExhausted: Bool { pagesRemaining < 1 }
    }

    /// The README's `BankListCursorError`, `exhausted` included.
    enum BankListError: Error, Equatable {
        case exhausted
        case url
        case network
    }

    typealias Server = ManualServer<Int, BanksPage, BankListError>
    typealias BankPaginator = Paginator<Bank, Int, Void, BanksPage, BankListError>

    /// The README's `BankListCursor`: it asks for `user_banks?page=N`, N counted from 1, while our
    /// exhaustible model counts from 0. Resetting it (`init(withInitialStateFrom:)`) is `refresh()`.
    static func bankListCursor(_ server: Server) -> PageSource<Bank, Int, Void, BanksPage, BankListError> {
        .exhaustible { index, size, _ in server.producer(index + 1, size: size) }
    }

    typealias FakeServer = TestPageSource<Bank, Void>

    /// The cursor over the kit's fake: `user_banks?page=N` answers the fake's exhaustible pages, a page
    /// that reaches the list's end has no pages remaining (the others one or more), no default bank is
    /// set, and every failure of the fake is `.network`.
    static func bankListCursor(_ server: FakeServer) -> PageSource<Bank, Int, Void, BanksPage, BankListError> {
        .exhaustible { index, size, _ in
            server.loadExhaustible(index, size: size, query: ())
                .map { BanksPage(pagesRemaining: $0.isExhausted ? 0 : 1, pageItems: $0.items, defaultBank: nil) }
                .mapError(server.appFailures { _ in .network })
        }
    }

    /// The API's pages the fake was asked for, from 1.
    static func pages(_ server: FakeServer) -> [Int] { server.requests.compactMap { Int($0.key).map { $0 + 1 } } }

    static func banks(_ names: String...) -> [Bank] { names.map(Bank.init) }

    static func page(_ names: [String], remaining: Int, default bank: String?) -> BanksPage {
        BanksPage(pagesRemaining: remaining, pageItems: names.map(Bank.init), defaultBank: bank.map(Bank.init))
    }

    /// The README's view controller as the data delegate: table rows and the default bank.
    final class BankListScreen: Sendable {
        private let state = Locked((rows: [String](), defaultBank: String?.none, calls: [String]()))

        var rows: [String] { state.value.rows }
        var defaultBank: String? { state.value.defaultBank }
        var calls: [String] { state.value.calls }

        init(_ paginator: BankPaginator) {
            paginator.updates.observeValues { [state] update in
                let names = update.newItems.map(\.name)
                state.withLock { screen in
                    switch update.change {
                    case .appended:  // paginator(didLoad: newPage)
                        screen.defaultBank = update.metadata?.defaultBank?.name
                        screen.rows += names
                        screen.calls.append("didLoad(\(names))")
                    case .reloaded:  // paginator(didReloadWith: page)
                        screen.defaultBank = update.metadata?.defaultBank?.name
                        screen.rows = names
                        screen.calls.append("didReloadWith(\(names))")
                    case .cleared:  // clearContent()
                        screen.rows = []
                        screen.calls.append("clearContent()")
                    case .inserted, .removed, .updated, .difference:
                        screen.calls.append("unexpected \(update.change)")
                    }
                }
            }
        }
    }

    @Test("the README's flow: reload, load more until exhausted, with the default bank following each page")
    func readmeFlow() {
        let server = Server()
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let screen = BankListScreen(paginator)
        paginator.refresh()  // paginator.reload() in viewDidLoad
        server.last?.succeed(Self.page(["Alfa", "Tinkoff"], remaining: 2, default: "Alfa"))
        paginator.loadNextPage()  // the infinite-scroll handler
        server.last?.succeed(Self.page(["Sber", "VTB"], remaining: 1, default: "Sber"))
        paginator.loadNextPage()
        server.last?.succeed(Self.page(["Raif"], remaining: 0, default: "Sber"))
        for _ in 0..<5 { paginator.loadNextPage() }
        #expect(server.keys == [1, 2, 3], "the API's pages, from 1")
        #expect(server.requests.map(\.size) == [2, 2, 2])
        #expect(screen.rows == ["Alfa", "Tinkoff", "Sber", "VTB", "Raif"])
        #expect(screen.defaultBank == "Sber")
        #expect(
            screen.calls == [
                "didReloadWith([\"Alfa\", \"Tinkoff\"])", "didLoad([\"Sber\", \"VTB\"])", "didLoad([\"Raif\"])",
            ])
        #expect(paginator.isEndReached.value)
        #expect(paginator.state.value == .data)
    }

    @Test("a page's extra fields are its metadata, in Paginator.metadata and in each ItemsUpdate")
    func pageMetadata() {
        let server = Server()
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        // `metadata` changes exactly when a page is applied, even for a metadata type that is not
        // Equatable: loading states and errors do not repeat it.
        let metadata = paginator.metadata.recordValues()
        let updates = Locked<[BanksPage?]>([])
        paginator.updates.observeValues { updates.append($0.metadata) }
        let first = Self.page(["Alfa", "Tinkoff"], remaining: 1, default: "Alfa")
        let second = Self.page(["Sber"], remaining: 0, default: "Sber")
        paginator.refresh()
        server.last?.succeed(first)
        #expect(paginator.metadata.value?.defaultBank == Bank(name: "Alfa"))
        #expect(paginator.metadata.value?.pagesRemaining == 1)
        paginator.loadNextPage()
        server.last?.succeed(second)
        paginator.refresh()
        server.last?.fail(.network)
        #expect(metadata.value == [nil, first, second])
        #expect(updates.value == [first, second])
    }

    @Test("exhaustion is the page's flag: the list ends at the exhausted page, also when it is full")
    func exhaustedFlag() {
        let server = FakeServer(Self.banks("Alfa", "Tinkoff"), delivery: .synchronous)
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        paginator.refresh()
        #expect(paginator.isEndReached.value)
        #expect(paginator.state.value == .data)
        paginator.loadNextPage()
        paginator.preload(index: 1)
        #expect(Self.pages(server) == [1])
    }

    @Test("a cursor that reports exhaustion as an error is a source that answers it with an exhausted page")
    func exhaustedError() {
        let server = Server()
        // The README's `exhaustedError`: the source turns it into the last (empty) page, not a failure.
        let source = PageSource<Bank, Int, Void, BanksPage, BankListError>.exhaustible { index, size, _ in
            let request = server.producer(index + 1, size: size)
            return SignalProducer { observer, lifetime in
                lifetime += request.start { event in
                    if case .failed(.exhausted) = event {
                        observer.send(value: BanksPage(pagesRemaining: 0, pageItems: [], defaultBank: nil))
                        observer.sendCompleted()
                    } else {
                        observer.send(event)
                    }
                }
            }
        }
        let paginator = BankPaginator(source: source, pageSize: 2)
        let errors = paginator.errorsAfterFirstPage.record()
        paginator.refresh()
        server.last?.succeed(Self.page(["Alfa", "Tinkoff"], remaining: 3, default: "Alfa"))
        paginator.loadNextPage()
        server.last?.fail(.exhausted)
        #expect(paginator.isEndReached.value)
        #expect(paginator.state.value == .data)
        #expect(errors.values.isEmpty)
        #expect(paginator.items.value.map(\.name) == ["Alfa", "Tinkoff"])
        paginator.refresh()
        server.last?.fail(.exhausted)
        #expect(paginator.state.value == .noData, "exhausted at once is an empty list")
        #expect(server.keys == [1, 2, 1])
    }

    @Test("reload resets the cursor: refresh() restarts the counter and the new first page replaces the rows")
    func reloadResetsTheCursor() {
        let server = Server()
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let screen = BankListScreen(paginator)
        paginator.refresh()
        server.last?.succeed(Self.page(["Alfa", "Tinkoff"], remaining: 2, default: "Alfa"))
        paginator.loadNextPage()
        server.last?.succeed(Self.page(["Sber", "VTB"], remaining: 1, default: "Alfa"))
        paginator.refresh()
        #expect(screen.rows == ["Alfa", "Tinkoff", "Sber", "VTB"], "the rows stay until the new first page")
        server.last?.succeed(Self.page(["Otkritie", "Alfa"], remaining: 2, default: "Otkritie"))
        paginator.loadNextPage()
        #expect(server.keys == [1, 2, 1, 2])
        #expect(server.requests.map(\.disposeCount) == [1, 1, 1, 0])
        #expect(screen.rows == ["Otkritie", "Alfa"])
        #expect(screen.defaultBank == "Otkritie")
        #expect(screen.calls.last == "didReloadWith([\"Otkritie\", \"Alfa\"])")
    }

    @Test("a reload while a page loads cancels it: its late page never reaches the data delegate")
    func reloadCancelsTheLoadInFlight() {
        let server = Server()
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let screen = BankListScreen(paginator)
        paginator.refresh()
        server.last?.succeed(Self.page(["Alfa", "Tinkoff"], remaining: 2, default: "Alfa"))
        paginator.loadNextPage()
        let stale = server.last!
        paginator.refresh()
        #expect(stale.disposeCount == 1)
        stale.succeed(Self.page(["Stale"], remaining: 1, default: "Stale"), on: DispatchQueue(label: "late"))
        server.last?.succeed(Self.page(["Sber"], remaining: 0, default: "Sber"))
        #expect(screen.calls == ["didReloadWith([\"Alfa\", \"Tinkoff\"])", "didReloadWith([\"Sber\"])"])
        #expect(screen.defaultBank == "Sber")
    }

    @Test("an empty first page is clearContent() and the empty state")
    func emptyFirstPageClearsContent() {
        let server = FakeServer(lists: [Self.banks("Alfa"), []], delivery: .synchronous)
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let screen = BankListScreen(paginator)
        paginator.refresh()
        paginator.refresh()
        #expect(screen.calls == ["didReloadWith([\"Alfa\"])", "clearContent()"])
        #expect(screen.rows.isEmpty)
        #expect(paginator.state.value == .noData)
    }

    @Test("the default UI delegate is a ListPresenter's defaults: every state has its view")
    func defaultUIDelegate() {
        // The first and the third requests fail; each reload gets the next list, the third one empty.
        let all = Self.banks("Alfa", "Tinkoff", "Sber")
        let server = FakeServer(
            lists: [all, all, []], delivery: .synchronous, failures: [.atRequest(1), .atRequest(3)])
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let rendered = paginator.recordRendering(with: DefaultsPresenter<BankListError>())
        paginator.refresh()  // onInitialLoading, onLoadingError
        paginator.retry()  // onSuccessfulLoad
        paginator.loadNextPage()  // onLoadingMore, onLoadingMoreError
        paginator.retry()  // onExhaustedState
        paginator.refresh()  // onReloading, onEmptyState
        let spinner = Shown.indicator("spinner")
        let retry = Shown.button("Retry") {}
        #expect(
            rendered.value == [
                RenderedList(),
                RenderedList(background: spinner),
                RenderedList(background: .text("Could not load: source error: network")),
                RenderedList(background: spinner),
                RenderedList(rowCount: 2, footer: spinner),
                RenderedList(rowCount: 2, footer: spinner),
                RenderedList(rowCount: 2, footer: retry),
                RenderedList(rowCount: 2, footer: spinner),
                RenderedList(rowCount: 3),
                RenderedList(rowCount: 3, isRefreshing: true),
                RenderedList(background: .text("Nothing here yet")),
            ])
    }

    @Test("retry() reloads after a first-page error and loads more after a later one, as the footer's onRetry")
    func retryPicksReloadOrLoadMore() {
        let server = Server()
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let states = paginator.recordStates()
        let rendered = paginator.recordRendering(with: DefaultsPresenter<BankListError>())
        paginator.refresh()
        server.last?.fail(.url)
        paginator.retry()
        server.last?.succeed(Self.page(["Alfa", "Tinkoff"], remaining: 2, default: "Alfa"))
        paginator.loadNextPage()
        server.last?.fail(.network)
        rendered.value.last?.footer?.press()  // paginatorUiDelegate.onRetry = { paginator.retry() }
        server.last?.succeed(Self.page(["Sber", "VTB"], remaining: 1, default: "Alfa"))
        #expect(server.keys == [1, 1, 2, 2])
        #expect(
            states.value == [
                .uninitialized, .refreshing, .errorRefreshing(.source(.url)), .refreshing, .data, .loadingMore,
                .errorLoadingMore(.source(.network)), .loadingMore, .data,
            ])
        paginator.retry()
        #expect(server.keys.count == 4, "retry() with no error does nothing")
        #expect(paginator.items.value.map(\.name) == ["Alfa", "Tinkoff", "Sber", "VTB"])
    }

    @Test("retry() from the empty state reloads, as in TIPagination")
    func retryFromEmpty() {
        let server = FakeServer(lists: [[], Self.banks("Alfa")], delivery: .synchronous)
        let paginator = BankPaginator(source: Self.bankListCursor(server), pageSize: 2)
        let states = paginator.state.recordValues()
        paginator.refresh()
        #expect(paginator.state.value == .noData)
        paginator.retry()
        #expect(Self.pages(server) == [1, 1], "the first page again")
        #expect(states.value == [.uninitialized, .refreshing, .noData, .refreshing, .data])
        #expect(paginator.items.value.map(\.name) == ["Alfa"])
    }
}
