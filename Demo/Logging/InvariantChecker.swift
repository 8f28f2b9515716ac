import Reactive
import Stapler

/// Watches a paginator and reports every broken invariant: an illegal state transition, a duplicate
/// item, an item of a stale query, a list that is not a run of consecutive items of the current
/// query's list (its first items, once the top was reached), an items change that does not turn the
/// previous items into the new ones.
///
/// It reads the paginator's `snapshot` stream (state, items and generation in one ordered value) and
/// its `updates` signal. The demo tells it the query of every refresh before calling it, so it knows
/// which query each new generation belongs to.
///
/// The checker takes `refreshing → data` (or `noData`) for the arrival of a generation's first page;
/// the demo never cancels a refresh, the one other way to make that move.
final class InvariantChecker<Item: ListItem, Query: Sendable, Failure: Error>: Sendable {
    private struct State {
        var state: PagingState<Failure> = .uninitialized
        var generation: UInt64 = 0
        var query: Query
        /// The queries of refreshes announced whose generation has not appeared yet, oldest first.
        var announced: [Query] = []
        /// Whether the current generation's first page has arrived.
        var firstPageArrived = false
        var checks = 0
        var violations: [String] = []
    }

    // Guarded by its own lock.
    private let state: LockedState<State>
    private let log: Log
    private let expectedIDs: (@Sendable (Query) -> [Item.ID])?
    private let describeQuery: @Sendable (Query) -> String

    /// Creates a checker for a paginator whose first generation has `query`.
    ///
    /// When `expectedIDs` is given (the simulated backend knows its data), the items must always be a
    /// run of consecutive ids it returns for the current query, in order (a list opened mid-way, paged
    /// at both ends), and its first ids once the top of the list was reached. The closure is read at
    /// each snapshot: a backend whose data changes (a deleted message) must change it before the
    /// paginator publishes the matching edit.
    init(
        query: Query, log: Log, expectedIDs: (@Sendable (Query) -> [Item.ID])? = nil,
        describeQuery: @escaping @Sendable (Query) -> String = { "\($0)" }
    ) {
        state = LockedState(State(query: query))
        self.log = log
        self.expectedIDs = expectedIDs
        self.describeQuery = describeQuery
    }

    /// Starts watching `paginator`; dispose the result to stop.
    func watch<Key, Metadata>(_ paginator: Paginator<Item, Key, Query, Metadata, Failure>) -> CompositeDisposable {
        let disposables = CompositeDisposable()
        disposables += paginator.snapshot.signal.observeValues { [self] snapshot in
            report(state.withLock { check(snapshot, &$0) })
        }
        disposables += paginator.updates.observeValues { [self] update in
            report(state.withLock { check(update, &$0) })
        }
        return disposables
    }

    /// Takes `snapshot`, the current one of a paginator that shows a list from the start (a restored
    /// list), as the state the checker starts from, and checks it.
    func resume<Metadata>(from snapshot: PagingSnapshot<Item, Metadata, Failure>) {
        report(
            state.withLock { state in
                state.state = snapshot.state
                state.generation = snapshot.generation
                state.firstPageArrived = true
                return check(snapshot, &state)
            })
    }

    /// Announces a refresh with `query` (or the current query when `nil`), just before it is called.
    func willRefresh(query: Query? = nil) {
        state.withLock { state in
            state.announced.append(query ?? state.announced.last ?? state.query)
        }
    }

    /// How many snapshots and changes were checked.
    var checkCount: Int { state.withLock { $0.checks } }

    /// Every invariant broken so far, in order.
    var violations: [String] { state.withLock { $0.violations } }

    // MARK: Checks (under the lock: pure, they only return messages)

    private func check<Metadata>(_ snapshot: PagingSnapshot<Item, Metadata, Failure>, _ state: inout State) -> [String]
    {
        state.checks += 1
        var broken: [String] = []
        // A snapshot in the same state is no move: an edit, or one edge's page while the other loads.
        if snapshot.state.name != state.state.name, !state.state.canMove(to: snapshot.state) {
            broken.append("illegal transition \(state.state.name) → \(snapshot.state.name)")
        }
        if snapshot.generation != state.generation {
            if snapshot.generation < state.generation {
                broken.append("the generation went back from \(state.generation) to \(snapshot.generation)")
            } else if state.announced.isEmpty {
                broken.append("generation \(snapshot.generation) started without a refresh")
            } else {
                state.query = state.announced.removeFirst()
            }
            state.generation = snapshot.generation
            state.firstPageArrived = false
        }
        if case .refreshing = state.state {
            switch snapshot.state {
            case .data, .noData: state.firstPageArrived = true
            default: break
            }
        }
        state.state = snapshot.state

        var seen = Set<Item.ID>()
        for item in snapshot.items where !seen.insert(item.id).inserted {
            broken.append("duplicate item \(item.id)")
        }
        if state.firstPageArrived, let expectedIDs {
            broken += checkOrder(
                of: snapshot.items.map(\.id), in: expectedIDs(state.query), query: describeQuery(state.query),
                topReached: snapshot.loadStates.prepend.isEndReached)
        }
        return broken
    }

    /// Whether `ids` is a run of consecutive ids of `expected` (its first ones when `topReached`).
    private func checkOrder(of ids: [Item.ID], in expected: [Item.ID], query: String, topReached: Bool) -> [String] {
        let members = Set(expected)
        if let stale = ids.first(where: { !members.contains($0) }) {
            return ["item \(stale) does not belong to the current query \(query)"]
        }
        if topReached {
            return expected.starts(with: ids)
                ? [] : ["the \(ids.count) items are not the first \(ids.count) of \(query)"]
        }
        guard let first = ids.first, let start = expected.firstIndex(of: first) else { return [] }
        return expected[start...].starts(with: ids)
            ? [] : ["the \(ids.count) items are not consecutive items of \(query)"]
    }

    private func check<Metadata>(_ update: ItemsUpdate<Item, Metadata>, _ state: inout State) -> [String] {
        state.checks += 1
        let previous = update.previous.map(\.id)
        let items = update.items.map(\.id)
        switch update.change {
        case .appended(let range):
            var broken: [String] = []
            if range.lowerBound != previous.count || range.upperBound != items.count {
                broken.append("appended \(range) does not join \(previous.count) items to \(items.count)")
            }
            if !items.starts(with: previous) {
                broken.append("an append changed items loaded before it")
            }
            return broken
        case .reloaded:
            return items.isEmpty ? ["a reload with no items (expected cleared)"] : []
        case .cleared:
            return items.isEmpty ? [] : ["cleared, but \(items.count) items remain"]
        case .inserted, .removed, .updated, .difference:
            var rows = Array(update.previous)
            update.apply(to: &rows)
            return rows.map(\.id) == items ? [] : ["\(update.change) does not turn the previous items into the new"]
        }
    }

    /// Records and logs each message not reported before (a duplicate stays in every later snapshot).
    private func report(_ broken: [String]) {
        guard !broken.isEmpty else { return }
        let new = state.withLock { state in
            let new = broken.filter { !state.violations.contains($0) }
            state.violations += new
            return new
        }
        for message in new {
            log.write(.check, "INVARIANT BROKEN", message)
        }
    }
}
