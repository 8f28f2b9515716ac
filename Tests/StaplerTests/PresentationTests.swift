import Reactive
import Stapler
import TestSupport
import Testing

/// The pure mapping from a snapshot to what a list screen shows, and the presenter that renders it.
@Suite("Presentation")
struct PresentationTests {
    typealias Snapshot = PagingSnapshot<Int, Void, ServerError>
    typealias Screen = ListPresentation<ServerError>

    static func snapshot(_ state: PagingState<ServerError>, items: Int, end: Bool = false) -> Snapshot {
        var snapshot = Snapshot.initial
        snapshot.state = state
        snapshot.items = PagedItems(0..<items)
        snapshot.isEndReached = end
        // The load states a paginator publishes with `state`: the presentation reads the bottom from them.
        switch state {
        case .refreshing: snapshot.loadStates.refresh = .loading
        case .errorRefreshing(let error): snapshot.loadStates.refresh = .failed(error)
        case .loadingMore: snapshot.loadStates.append = .loading
        case .errorLoadingMore(let error): snapshot.loadStates.append = .failed(error)
        case .uninitialized, .noData, .data: snapshot.loadStates.append = .idle(endReached: end)
        }
        return snapshot
    }

    static let failure = PagingError<ServerError>.source(.unavailable)

    /// Every state with and without items, and the screen it must show.
    static let table: [(PagingState<ServerError>, Int, Bool, Screen)] = [
        (.uninitialized, 0, false, .idle),
        (.refreshing, 0, false, .loading),
        (.refreshing, 5, false, .content(ListContent(itemCount: 5, footer: .hidden, isRefreshing: true))),
        (.errorRefreshing(failure), 0, false, .failed(failure)),
        (
            .errorRefreshing(failure), 5, false,
            .content(ListContent(itemCount: 5, footer: .hidden, refreshError: failure))
        ),
        (.noData, 0, true, .empty),
        (.data, 5, false, .content(ListContent(itemCount: 5, footer: .loadingRow))),
        (.data, 5, true, .content(ListContent(itemCount: 5, footer: .end))),
        (.loadingMore, 5, false, .content(ListContent(itemCount: 5, footer: .loadingRow, isLoadingMore: true))),
        (.errorLoadingMore(failure), 5, false, .content(ListContent(itemCount: 5, footer: .retry(failure)))),
    ]

    @Test("every state maps to the screen of the table in ListPresentation's documentation", arguments: 0..<10)
    func mapping(row: Int) {
        let (state, items, end, expected) = Self.table[row]
        #expect(Screen(Self.snapshot(state, items: items, end: end)) == expected)
    }

    @Test("P9: a later page's error is a retry footer under the rows, never the full-screen error")
    func P9_laterErrorIsAFooter() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let screens = stapler.paginator.presentation.recordValues()
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: 30))
        stapler.paginator.loadNextPage()
        server.last?.fail(.timeout)
        let failure = PagingError<ServerError>.source(.timeout)
        #expect(
            screens.value == [
                .idle, .loading, .content(ListContent(itemCount: 10, footer: .loadingRow)),
                .content(ListContent(itemCount: 10, footer: .loadingRow, isLoadingMore: true)),
                .content(ListContent(itemCount: 10, footer: .retry(failure))),
            ])
        let rendered = TextListPresenter<ServerError>().render(stapler.paginator.presentation.value) {}
        #expect(rendered == RenderedList(rowCount: 10, footer: "[Retry]"))
    }

    @Test("a refresh that fails over loaded rows keeps them with a notice; with no rows it is the error placeholder")
    func failedRefresh() {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        stapler.refreshAction.apply().start()
        server.last?.fail(.unavailable)
        let presenter = TextListPresenter<ServerError>()
        #expect(
            presenter.render(stapler.paginator.presentation.value) {}
                == RenderedList(background: "Could not load: source error: unavailable"))
        stapler.refreshAction.apply().start()
        server.last?.succeed(page(0, 10, total: 30))
        stapler.refreshAction.apply().start()
        #expect(
            presenter.render(stapler.paginator.presentation.value) {} == RenderedList(rowCount: 10, isRefreshing: true))
        server.last?.fail(.timeout)
        #expect(
            presenter.render(stapler.paginator.presentation.value) {}
                == RenderedList(rowCount: 10, notice: "Could not refresh: source error: timeout"))
        #expect(Array(stapler.items.value) == Array(0..<10))
    }

    @Test("the presentation changes only when the screen does")
    func skipsRepeats() {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
        let screens = paginator.presentation.recordValues()
        let snapshots = paginator.snapshot.recordValues()
        paginator.refresh()
        paginator.refresh()
        paginator.refresh()
        #expect(snapshots.value.count == 4, "each refresh publishes a snapshot of a new generation")
        #expect(screens.value == [.idle, .loading], "but the screen stays the loading indicator")
        server.last?.succeed(page(0, 10, total: 30))
        paginator.loadNextPage()
        server.last?.succeed(page(10, 10, total: 30))
        #expect(
            screens.value == [
                .idle, .loading, .content(ListContent(itemCount: 10, footer: .loadingRow)),
                .content(ListContent(itemCount: 10, footer: .loadingRow, isLoadingMore: true)),
                .content(ListContent(itemCount: 20, footer: .loadingRow)),
            ])
    }

    @Test("the visible row count includes the loading row while pages are left, and rows resolve by index")
    func visibleRows() {
        let more = ListContent<ServerError>(itemCount: 3, footer: .loadingRow)
        #expect(more.visibleRowCount == 4)
        #expect((-1...4).map(more.row(at:)) == [nil, .item(0), .item(1), .item(2), .loading, nil])
        let end = ListContent<ServerError>(itemCount: 3, footer: .end)
        #expect(end.visibleRowCount == 3)
        #expect(end.row(at: 3) == nil)
        #expect(ListContent<ServerError>(itemCount: 3, footer: .retry(Self.failure)).visibleRowCount == 3)
        #expect(Screen.loading.visibleRowCount == 0)
        #expect(Screen.content(more).visibleRowCount == 4)
    }

    @Test("the presenter's defaults build every placeholder and indicator from its three primitives")
    func presenterDefaults() {
        let presenter = TextListPresenter<ServerError>()
        #expect(presenter.render(.idle) {} == RenderedList())
        #expect(presenter.render(.loading) {} == RenderedList(background: "Loading…"))
        #expect(presenter.render(.empty) {} == RenderedList(background: "Nothing here yet"))
        #expect(
            presenter.render(.content(ListContent(itemCount: 2, footer: .loadingRow))) {}
                == RenderedList(rowCount: 2, footer: "Loading…"))
        #expect(presenter.render(.content(ListContent(itemCount: 2, footer: .end))) {} == RenderedList(rowCount: 2))
    }

    @Test(
        "a host that handles an initial error itself suppresses the placeholder; a later error still shows the footer")
    func customInitialErrorHandling() {
        let handled = Locked<[PagingError<ServerError>]>([])
        let retries = Locked(0)
        let presenter = RecordingPresenter(handles: { $0.sourceError == .unavailable }, handled: handled)
        let unavailable = PagingError<ServerError>.source(.unavailable)
        let timeout = PagingError<ServerError>.source(.timeout)
        #expect(presenter.render(.failed(unavailable)) { retries.increment(by: 1) } == RenderedList())
        #expect(
            presenter.render(.failed(timeout)) {}
                == RenderedList(background: .placeholder("Could not load: source error: timeout")))
        #expect(handled.value == [unavailable, timeout])
        let rendered = presenter.render(.content(ListContent(itemCount: 4, footer: .retry(unavailable)))) {
            retries.increment(by: 1)
        }
        #expect(rendered.background == nil)
        guard case .button(let title, let retry) = rendered.footer else {
            Issue.record("expected a retry button, got \(String(describing: rendered.footer))")
            return
        }
        #expect(title == "Retry")
        retry()
        #expect(retries.value == 1)
        #expect(handled.value.count == 2, "a later page's error never reaches the initial-error hook")
    }
}

/// What to show for a first-page error (a pure query of the presenter) apart from what to do about it once
/// (the paginator's `initialErrors` event).
@Suite("Presentation: initial errors")
struct InitialErrorTests {
    typealias Failure = PagingError<ServerError>

    /// A paginator over a hand-driven offset server.
    static func makePaginator(
        _ server: OffsetServer, deliveringOn scheduler: (any Scheduler)? = nil
    ) -> Paginator<Int, Int, Void, Response, ServerError> {
        Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 10, deliveringOn: scheduler))
    }

    @Test("rendering is pure: a failed first page renders the same views on every pass, and the reaction runs once")
    func renderingIsPure() {
        let server = OffsetServer()
        let paginator = Self.makePaginator(server)
        let alerts = Locked<[Failure]>([])
        paginator.initialErrors.observeValues { alerts.append($0) }
        let presenter = AlertPresenter(suppressed: [.unavailable])
        paginator.refresh()
        server.last?.fail(.unavailable)
        // A SwiftUI body may be evaluated any number of times for one state.
        let passes = (0..<3).map { _ in presenter.render(paginator.presentation.value) {} }
        #expect(passes == Array(repeating: RenderedList(), count: 3), "no placeholder under the alert")
        #expect(alerts.value == [.source(.unavailable)], "the alert shows once")
        paginator.retry()
        server.last?.fail(.timeout)
        let shown = (0..<3).map { _ in presenter.render(paginator.presentation.value) {} }
        let placeholder = RenderedList<AlertPresenter.View>(
            background: .placeholder("Could not load: source error: timeout"))
        #expect(shown == Array(repeating: placeholder, count: 3))
        #expect(alerts.value == [.source(.unavailable), .source(.timeout)])
    }

    @Test(
        "initialErrors sends each first-page error once, never a later page's error nor a refresh failing over rows")
    func initialErrorsOncePerError() {
        let server = OffsetServer()
        let paginator = Self.makePaginator(server)
        let errors = Locked<[Failure]>([])
        paginator.initialErrors.observeValues { errors.append($0) }
        paginator.refresh()
        server.last?.fail(.unavailable)
        paginator.loadNextPage()
        paginator.preload(index: 0)
        paginator.cancel()
        paginator.retry()
        server.last?.fail(.timeout)
        paginator.refresh(query: ())
        server.last?.succeed(page(0, 10, total: 30))
        paginator.loadNextPage()
        server.last?.fail(.unavailable)
        paginator.refresh()
        server.last?.fail(.timeout)
        #expect(errors.value == [.source(.unavailable), .source(.timeout)])
        #expect(
            paginator.presentation.value
                == .content(ListContent(itemCount: 10, footer: .hidden, refreshError: .source(.timeout))))
    }

    @Test("initialErrors arrives on the paginator's scheduler, with the presentation that shows the error")
    func initialErrorsOnTheScheduler() {
        withTestScheduler { scheduler in
            let server = OffsetServer()
            let paginator = Self.makePaginator(server, deliveringOn: scheduler)
            let events = Locked<[String]>([])
            paginator.presentation.signal.observeValues { events.append("presentation \($0.visibleRowCount)") }
            paginator.initialErrors.observeValues { events.append("error \($0)") }
            paginator.refresh()
            server.last?.fail(.unavailable)
            #expect(events.value.isEmpty, "nothing before the scheduler runs")
            scheduler.run()
            #expect(events.value == ["presentation 0", "presentation 0", "error source error: unavailable"])
        }
    }

    @Test("suppressesErrorPlaceholder(for:) alone decides the placeholder; its default asks handlesInitialError(_:)")
    func suppressionQuery() {
        let presenter = AlertPresenter(suppressed: [.unavailable])
        #expect(presenter.suppressesErrorPlaceholder(for: .source(.unavailable)))
        #expect(!presenter.suppressesErrorPlaceholder(for: .source(.timeout)))
        #expect(!presenter.suppressesErrorPlaceholder(for: .noPage))
        #expect(!presenter.handlesInitialError(.source(.unavailable)), "the earlier name keeps its default")
        #expect(!TextListPresenter<ServerError>().suppressesErrorPlaceholder(for: .source(.unavailable)))
        let rendered = presenter.render(.content(ListContent(itemCount: 2, footer: .retry(.source(.unavailable))))) {}
        #expect(rendered == RenderedList(rowCount: 2, footer: .button("Retry")), "a later page's error is the footer")
    }

    @Test("observing initialErrors does not keep a released paginator alive")
    func initialErrorsDoNotRetain() {
        let server = OffsetServer()
        let errors = Locked<[Failure]>([])
        weak var weakPaginator: Paginator<Int, Int, Void, Response, ServerError>?
        do {
            let paginator = Self.makePaginator(server)
            weakPaginator = paginator
            paginator.initialErrors.observeValues { errors.append($0) }
            paginator.refresh()
        }
        #expect(weakPaginator == nil)
        server.last?.fail(.unavailable)
        #expect(errors.value.isEmpty)
        #expect(server.last?.isDisposed == true)
    }
}

/// A presenter that implements only the pure query: it shows no error placeholder for `suppressed`.
private struct AlertPresenter: ListPresenter {
    enum View: Equatable {
        case placeholder(String)
        case spinner
        case button(String)
    }

    let suppressed: Set<ServerError>

    func makeMessage(_ text: String) -> View { .placeholder(text) }
    func makeActivityIndicator() -> View { .spinner }
    func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> View { .button(title) }

    func suppressesErrorPlaceholder(for error: PagingError<ServerError>) -> Bool {
        error.sourceError.map(suppressed.contains) ?? false
    }
}

/// A presenter over a small view enum that records the errors offered to its hook.
private struct RecordingPresenter: ListPresenter {
    enum View: Equatable {
        case placeholder(String)
        case spinner
        case button(String, @Sendable () -> Void)

        static func == (lhs: View, rhs: View) -> Bool {
            switch (lhs, rhs) {
            case (.placeholder(let a), .placeholder(let b)): a == b
            case (.spinner, .spinner): true
            case (.button(let a, _), .button(let b, _)): a == b
            default: false
            }
        }
    }

    let handles: @Sendable (PagingError<ServerError>) -> Bool
    let handled: Locked<[PagingError<ServerError>]>

    func makeMessage(_ text: String) -> View { .placeholder(text) }
    func makeActivityIndicator() -> View { .spinner }
    func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> View { .button(title, retry) }

    func handlesInitialError(_ error: PagingError<ServerError>) -> Bool {
        handled.append(error)
        return handles(error)
    }
}
