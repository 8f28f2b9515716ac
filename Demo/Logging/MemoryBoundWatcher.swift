import Reactive
import Stapler

/// Watches a paginator with a memory bound (`maxPages`): logs every drop of pages as it is published,
/// and reports a list that holds more pages than the bound or whose `leadingCount` loses its rows.
///
/// The rows are numbered 1...N by the simulated server, so the row at index 0 stands at position
/// `id - 1` of the whole list, and `position + leadingCount` is where the list was opened: the same
/// for every snapshot of one list (from the refresh that shows it to the next), whatever was added or
/// dropped at the top (`leadingCount` goes negative once the opening page itself was dropped).
final class MemoryBoundWatcher: Sendable {
    /// What the bound did, for the summary.
    struct Counts: Sendable {
        /// Pages dropped at the top and at the bottom.
        var droppedAtTop = 0
        var droppedAtBottom = 0
        /// The most pages any snapshot held.
        var mostPages = 0
    }

    private struct State {
        var counts = Counts()
        var openedAt: Int?
        var checks = 0
        var violations: [String] = []
    }

    private let maxPages: Int
    private let pageSize: Int
    private let log: Log
    // Guarded by its own lock.
    private let state = LockedState(State())

    /// Creates a watcher of a paginator made with `maxPages` and pages of `pageSize` rows.
    init(maxPages: Int, pageSize: Int, log: Log) {
        self.maxPages = maxPages
        self.pageSize = pageSize
        self.log = log
    }

    /// What the bound did so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// How many snapshots were checked.
    var checkCount: Int { state.withLock { $0.checks } }

    /// Every broken rule so far, in order.
    var violations: [String] { state.withLock { $0.violations } }

    /// Starts watching `paginator`, from its current snapshot on; dispose the result to stop.
    func watch<Key, Query, Metadata, Failure>(
        _ paginator: Paginator<Product, Key, Query, Metadata, Failure>
    ) -> CompositeDisposable {
        let disposables = CompositeDisposable()
        check(paginator.snapshot.value)
        disposables += paginator.snapshot.signal.observeValues { [self] in check($0) }
        disposables += paginator.updates.observeValues { [self] update in
            // While an observer runs, every property holds this change's values.
            let snapshot = paginator.snapshot.value
            narrate(update, pages: snapshot.pages, leadingCount: snapshot.leadingCount)
        }
        return disposables
    }

    private func check<Metadata, Failure>(_ snapshot: PagingSnapshot<Product, Metadata, Failure>) {
        let broken = state.withLock { state -> [String] in
            state.checks += 1
            state.counts.mostPages = max(state.counts.mostPages, snapshot.pages)
            var broken: [String] = []
            // One page over the bound may stay while dropping it would bring the row shown back within its
            // prefetch distance of that end (the next preload would load it again at once).
            if snapshot.pages > maxPages + 1 {
                broken.append("the list holds \(snapshot.pages) pages, more than maxPages \(maxPages) + 1")
            }
            // A refresh shows the old list until it commits a new one, whose rows start over.
            switch snapshot.state {
            case .refreshing, .errorRefreshing:
                state.openedAt = nil
                return broken
            default: break
            }
            guard let first = snapshot.items.first else { return broken }
            let openedAt = first.id - 1 + snapshot.leadingCount
            if let expected = state.openedAt, expected != openedAt {
                broken.append(
                    "leadingCount \(snapshot.leadingCount) puts the opening row at \(openedAt), not \(expected)")
            }
            state.openedAt = openedAt
            return broken
        }
        for message in broken {
            log.write(.check, "INVARIANT BROKEN", message)
        }
        state.withLock { $0.violations += broken }
    }

    /// Logs the pages an update dropped, at the top and at the bottom (the scenes make no edits, so
    /// every row removed is a dropped page's).
    private func narrate<Metadata>(_ update: ItemsUpdate<Product, Metadata>, pages: Int, leadingCount: Int) {
        let previous = Array(update.previous)
        let removed: [Int]
        switch update.change {
        case .removed(let range): removed = Array(range)
        case .difference(let difference): removed = difference.removals
        default: return
        }
        guard !removed.isEmpty else { return }
        let top = removed.filter { $0 < previous.count / 2 }
        let bottom = removed.filter { $0 >= previous.count / 2 }
        let kept = "the list keeps \(update.items.idSummary) (\(plural(pages, "page", "pages"))), "
        for (rows, end) in [(top, "top"), (bottom, "bottom")] where !rows.isEmpty {
            let dropped = (rows.count + pageSize - 1) / pageSize
            state.withLock {
                if end == "top" { $0.counts.droppedAtTop += dropped } else { $0.counts.droppedAtBottom += dropped }
            }
            log.write(
                .demo, "dropped",
                "\(plural(dropped, "page", "pages")) at the \(end), \(rows.map { previous[$0] }.idSummary): "
                    + kept + "leadingCount \(leadingCount)")
        }
    }
}
