import Reactive
import Stapler

/// The user of the long-list scenes: a screen of a few rows that scrolls, a screenful a tick, to one
/// goal after another (the bottom of the list, a number of rows down, the top).
///
/// The screen keeps its place as a list screen does: it remembers its top row as an index minus the
/// snapshot's `leadingCount`, so rows inserted or dropped at the top never move it, and it passes
/// every row that appears to `preload(index:)`, which loads a page at the edge it nears (and, with a
/// memory bound, tells the paginator which rows to keep). When a refresh replaces the list, the screen
/// finds its top row again by id. It taps Retry when a page fails, and gives up after
/// `maximumRetries` failed retries in a row.
///
/// It records the id of every row that appears, in order: going down they must be every id once,
/// ascending; going up, descending.
@MainActor
final class ScrollingSession {
    typealias ProductPaginator = ScriptedSession.ProductPaginator

    /// Where the user scrolls to.
    enum Goal: Equatable {
        /// Down to the last row of the list.
        case bottom
        /// Down by this many rows (fewer at the end of the list).
        case down(rows: Int)
        /// Up to the first row of the list.
        case top
    }

    /// How the session went.
    struct Outcome {
        var retries = 0
        var gaveUp = false
        /// Whether every goal was reached.
        var finished = false
        /// The ids of the rows that appeared on the way to each goal, in the order they appeared,
        /// starting with the screen the goal started from (in the goal's direction).
        var shownIDs: [[Int]] = []
    }

    private let paginator: ProductPaginator
    private let simulation: Simulation
    private let log: Log
    private let maximumRetries: Int
    private let onFinish: @MainActor (ScrollingSession) -> Void

    private let tick: Duration = .milliseconds(300)
    private let screenRows = DemoOptions.screenRows
    private var goals: [Goal]
    /// The top row on screen, as an index minus the `leadingCount` of the snapshot it was read from;
    /// `nil` until the list shows.
    private var anchor: Int?
    private var topID: Int?
    /// The row below the last one shown, as an index minus `leadingCount`: under a screen that the
    /// list did not fill, the rows that load show there first.
    private var nextBelow: Int?
    private var generation: UInt64 = 0
    private var rowsLeft: Int?
    private var failuresInARow = 0
    private(set) var outcome = Outcome()

    /// Creates a user of `paginator` that scrolls to `goals` in turn from row `startRow` (the top of its
    /// first screen), then calls `onFinish`.
    init(
        paginator: ProductPaginator, simulation: Simulation, log: Log, maximumRetries: Int, goals: [Goal],
        startRow: Int = 0, onFinish: @escaping @MainActor (ScrollingSession) -> Void = { _ in }
    ) {
        self.paginator = paginator
        self.simulation = simulation
        self.log = log
        self.maximumRetries = maximumRetries
        self.goals = goals
        self.onFinish = onFinish
        let snapshot = paginator.snapshot.value
        if !snapshot.items.isEmpty {
            let top = min(startRow, snapshot.items.count - 1)
            anchor = top - snapshot.leadingCount
            topID = snapshot.items[top].id
            generation = snapshot.generation
        }
    }

    /// Schedules the first look at the screen; `Simulation.run()` plays the rest.
    func start() {
        simulation.schedule(after: tick) { [self] in step() }
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
                outcome.gaveUp = true
                return
            }
            failuresInARow += 1
            outcome.retries += 1
            log.write(.user, "retry()", "taps Retry (\(failuresInARow) of at most \(maximumRetries))")
            paginator.retry()
            return scheduleTick()
        }
        if !snapshot.state.isLoading { failuresInARow = 0 }
        guard let goal = goals.first else {
            outcome.finished = true
            return onFinish(self)
        }
        switch snapshot.state {
        case .data, .loadingMore: break
        case .noData:
            log.write(.user, "sees", "an empty list: nothing to scroll")
            goals = []
            return scheduleTick()
        default: return scheduleTick()
        }
        let top = screenTop(in: snapshot)
        if rowsLeft == nil { beginGoal(goal, top: top, in: snapshot) }
        switch goal {
        case .bottom, .down: scrollDown(from: top, in: snapshot)
        case .top: scrollUp(from: top, in: snapshot)
        }
        scheduleTick()
    }

    /// The index of the top row on screen, read against `snapshot` (found again by id after a refresh).
    private func screenTop(in snapshot: ProductPaginator.Snapshot) -> Int {
        let count = snapshot.items.count
        if snapshot.generation != generation || anchor == nil {
            let found = topID.flatMap { id in snapshot.items.firstIndex { $0.id == id } } ?? 0
            generation = snapshot.generation
            anchor = found - snapshot.leadingCount
            nextBelow = nil
        }
        let top = min(max((anchor ?? 0) + snapshot.leadingCount, 0), max(count - 1, 0))
        anchor = top - snapshot.leadingCount
        topID = snapshot.items[top].id
        return top
    }

    /// Starts the way to `goal`: the rows on screen are the first ones seen on it.
    private func beginGoal(_ goal: Goal, top: Int, in snapshot: ProductPaginator.Snapshot) {
        let screen = top..<min(top + screenRows, snapshot.items.count)
        let rows = goal == .top ? Array(screen.reversed()) : Array(screen)
        rowsLeft = if case .down(let rows) = goal { rows } else { Int.max }
        let plan =
            switch goal {
            case .bottom: "scrolls down to the end of the list"
            case .down(let rows): "scrolls down by \(rows) rows"
            case .top: "scrolls back up to the top of the list"
            }
        log.write(
            .user, "sees rows",
            "\(screen.lowerBound)…\(screen.upperBound - 1) of \(snapshot.items.count) "
                + "(\(snapshot.items[screen].idSummary)), then \(plan)")
        outcome.shownIDs.append([])
        show(rows, of: snapshot)
    }

    private func scrollDown(from top: Int, in snapshot: ProductPaginator.Snapshot) {
        let count = snapshot.items.count
        let screenEnd = min(top + screenRows, count)
        if let next = nextBelow.map({ $0 + snapshot.leadingCount }), next < screenEnd {
            log.write(
                .user, "preload(index:)",
                "sees rows \(next)…\(screenEnd - 1) fill the screen: " + snapshot.items[next..<screenEnd].idSummary)
            show(Array(next..<screenEnd), of: snapshot)
            return
        }
        let step = min(screenRows, count - screenEnd, rowsLeft ?? 0)
        if step > 0 {
            let newTop = top + step
            log.write(
                .user, "preload(index:)",
                "scrolls down to rows \(newTop)…\(screenEnd + step - 1) of \(count): "
                    + snapshot.items[newTop..<screenEnd + step].idSummary)
            anchor = newTop - snapshot.leadingCount
            topID = snapshot.items[newTop].id
            rowsLeft = (rowsLeft ?? 0) - step
            show(Array(screenEnd..<screenEnd + step), of: snapshot)
        } else if rowsLeft == 0 || snapshot.loadStates.append.isEndReached {
            finishGoal(snapshot, rowsLeft == 0 ? "the row it scrolled to" : "the end of the list")
        } else if !snapshot.loadStates.append.isLoading {
            log.write(.user, "preload(index:)", "waits at the last row loaded, \(count - 1)")
            paginator.preload(index: count - 1)
        }
    }

    private func scrollUp(from top: Int, in snapshot: ProductPaginator.Snapshot) {
        let step = min(screenRows, top)
        if step > 0 {
            let newTop = top - step
            let screenEnd = min(newTop + screenRows, snapshot.items.count)
            log.write(
                .user, "preload(index:)",
                "scrolls up to rows \(newTop)…\(screenEnd - 1) of \(snapshot.items.count): "
                    + snapshot.items[newTop..<screenEnd].idSummary)
            anchor = newTop - snapshot.leadingCount
            topID = snapshot.items[newTop].id
            show(Array((newTop..<top).reversed()), of: snapshot)
        } else if snapshot.loadStates.prepend.isEndReached {
            finishGoal(snapshot, "the top of the list")
        } else if !snapshot.loadStates.prepend.isLoading {
            log.write(.user, "preload(index:)", "waits at the first row loaded, 0")
            paginator.preload(index: 0)
        }
    }

    private func finishGoal(_ snapshot: ProductPaginator.Snapshot, _ what: String) {
        log.write(.user, "reaches", "\(what): \(snapshot.items.count) rows loaded, \(snapshot.items.idSummary)")
        goals.removeFirst()
        rowsLeft = nil
    }

    /// The rows at `indices` appear on screen, in that order.
    private func show(_ indices: [Int], of snapshot: ProductPaginator.Snapshot) {
        if let last = indices.max() {
            nextBelow = max(nextBelow.map { $0 + snapshot.leadingCount } ?? 0, last + 1) - snapshot.leadingCount
        }
        for index in indices {
            outcome.shownIDs[outcome.shownIDs.count - 1].append(snapshot.items[index].id)
            paginator.preload(index: index)
        }
    }
}
