import Reactive
import Stapler

/// The user of the default run: a person on a list screen who opens it, scrolls, taps Retry when a
/// page fails, pulls to refresh while a page loads, searches, and scrolls to the end.
///
/// The user acts on ticks of the simulation's clock, reading the paginator's state as a screen
/// would show it, and calls the paginator's API exactly as a list screen does: `refresh()`,
/// `preload(index:)` for every row that appears, `retry()`, `refresh(query:)`.
@MainActor
final class ScriptedSession {
    typealias ProductPaginator = Paginator<Product, Int, Category?, ProductsPage, ServerError>

    private enum Act {
        case browsing
        case waitingForRefresh
        case browsingResults
        case finished
        case gaveUp
    }

    /// How the session ended, for the summary.
    struct Outcome {
        var refreshes = 0
        var searches = 0
        var retries = 0
        var gaveUp = false
    }

    private let paginator: ProductPaginator
    private let simulation: Simulation
    private let log: Log
    private let checker: InvariantChecker<Product, Category?, ServerError>
    private let maximumRetries: Int
    /// Pull to refresh once this many pages are loaded and the next one is loading.
    private let pullAtPages: Int
    private let searchCategory: Category

    private let tick: Duration = .milliseconds(300)
    private let screenRows = 8
    private let scrollStep = 5

    private var act = Act.browsing
    /// The first row on screen, and the end of the rows shown so far.
    private var top = 0
    private var shown = 0
    private var failuresInARow = 0
    private var scrolledOnce = false
    private(set) var outcome = Outcome()

    init(
        paginator: ProductPaginator, simulation: Simulation, log: Log,
        checker: InvariantChecker<Product, Category?, ServerError>, maximumRetries: Int, pullAtPages: Int,
        searchCategory: Category
    ) {
        self.paginator = paginator
        self.simulation = simulation
        self.log = log
        self.checker = checker
        self.maximumRetries = maximumRetries
        self.pullAtPages = pullAtPages
        self.searchCategory = searchCategory
    }

    /// Schedules the first action; `Simulation.run()` plays the rest.
    func start() {
        simulation.schedule(after: .zero) { [self] in
            log.chapter("The user opens the list: the first page loads")
            log.write(.user, "refresh()", "opens the list")
            outcome.refreshes += 1
            checker.willRefresh()
            paginator.refresh()
            scheduleTick()
        }
    }

    private func scheduleTick() {
        simulation.schedule(after: tick) { [self] in step() }
    }

    /// One look at the screen, and at most one action.
    private func step() {
        let snapshot = paginator.snapshot.value
        if let error = snapshot.state.error {
            guard failuresInARow < maximumRetries else {
                log.write(.user, "gives up", "the page still fails after \(maximumRetries) retries: \(error)")
                act = .gaveUp
                outcome.gaveUp = true
                return
            }
            failuresInARow += 1
            outcome.retries += 1
            if failuresInARow == 1 {
                let which = snapshot.state.name == "errorRefreshing" ? "The first page" : "A later page"
                log.chapter("\(which) failed: the user taps Retry")
            }
            log.write(.user, "retry()", "taps Retry (\(failuresInARow) of at most \(maximumRetries))")
            paginator.retry()
            return scheduleTick()
        }
        if !snapshot.state.isLoading { failuresInARow = 0 }

        switch act {
        case .browsing:
            if case .loadingMore = snapshot.state, snapshot.pages >= pullAtPages {
                log.chapter("Page \(snapshot.pages + 1) is slow: the user pulls to refresh while it loads")
                pullToRefresh("pulls to refresh while page \(snapshot.pages + 1) loads")
            } else if snapshot.isEndReached, atBottom(of: snapshot) {
                log.chapter("The list ends: the user pulls to refresh")
                pullToRefresh("pulls to refresh at the end of the list")
            } else {
                look(at: snapshot)
            }
        case .waitingForRefresh:
            switch snapshot.state {
            case .data, .noData:
                log.chapter("A new query: the user searches for \(searchCategory.rawValue)")
                log.write(.user, "refresh(query:)", "types \"\(searchCategory.rawValue)\" in the search field")
                outcome.searches += 1
                top = 0
                shown = 0
                act = .browsingResults
                checker.willRefresh(query: searchCategory)
                paginator.refresh(query: searchCategory)
            default:
                break
            }
        case .browsingResults:
            if snapshot.isEndReached, atBottom(of: snapshot), !snapshot.state.isLoading {
                log.chapter("The end of the list")
                log.write(.user, "done", "sees the last row: \(snapshot.items.count) products, isEndReached")
                act = .finished
                return
            }
            look(at: snapshot)
        case .finished, .gaveUp:
            return
        }
        scheduleTick()
    }

    private func pullToRefresh(_ detail: String) {
        log.write(.user, "refresh()", detail)
        outcome.refreshes += 1
        top = 0
        shown = 0
        act = .waitingForRefresh
        checker.willRefresh()
        paginator.refresh()
    }

    private func atBottom(of snapshot: ProductPaginator.Snapshot) -> Bool {
        shown >= snapshot.items.count
    }

    /// Shows the rows that fit on screen, or scrolls down by a few rows; every row that appears is
    /// passed to `preload(index:)`, which starts the next page near the end of the list.
    private func look(at snapshot: ProductPaginator.Snapshot) {
        let count = snapshot.items.count
        let screenEnd = min(top + screenRows, count)
        if shown < screenEnd {
            show(upTo: screenEnd, of: count, "sees rows")
        } else if screenEnd < count {
            if !scrolledOnce {
                scrolledOnce = true
                log.chapter("The user scrolls: rows near the end preload the next page")
            }
            top = min(top + scrollStep, count - screenRows)
            show(upTo: min(top + screenRows, count), of: count, "scrolls to rows")
        } else if case .data = snapshot.state, !snapshot.isEndReached, count > 0 {
            log.write(.user, "preload(index:)", "waits at the last row, \(count - 1)")
            paginator.preload(index: count - 1)
        }
    }

    private func show(upTo end: Int, of count: Int, _ verb: String) {
        log.write(.user, "preload(index:)", "\(verb) \(top)…\(end - 1) of \(count)")
        let rows = shown..<end
        shown = end
        for row in rows {
            paginator.preload(index: row)
        }
    }
}

extension Paginator {
    /// The snapshot type of this paginator.
    typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
}
