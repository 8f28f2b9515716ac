import Reactive
import Stapler

/// Where the scene's user goes, for a list of `count` products in pages of `pageSize`.
struct JumpPlan {
    let count: Int
    let pageSize: Int

    /// A preload farther than this many slots from the loaded rows jumps: one page.
    var threshold: Int { pageSize }
    /// Half a page: a preload at an edge row loads one page there, not the other edge's too.
    var prefetchDistance: Int { max(1, pageSize / 2) }
    /// The offset of the page after the first, which the user's first scroll starts loading.
    var nextPage: Int { pageSize }
    /// The row of the first drag, and the offset of its page.
    var middleRow: Int { count / 2 }
    var firstJump: Int { middleRow / pageSize * pageSize }
    /// The row where the drag ends, and the offset of its page.
    var farRow: Int { count * 4 / 5 }
    var secondJump: Int { farRow / pageSize * pageSize }

    /// Whether the middle is a jump from the first page, and the far row's page and the page above it
    /// are others than the middle's (so the rows of the superseded loads never show legitimately).
    var canJump: Bool {
        count > 0 && middleRow - (pageSize - 1) > threshold && firstJump > nextPage
            && secondJump - pageSize > firstJump
    }

    /// The offsets of the pages a jump skips: none of them may be requested.
    var skipped: Set<Int> {
        let between = stride(from: nextPage + pageSize, to: secondJump - pageSize, by: pageSize)
        return Set(between).subtracting([firstJump])
    }
}

/// The user's gestures, one after the other: each waits until the paginator is quiet, then a pause.
@MainActor
final class JumpSession {
    private let paginator: ScrollingSession.ProductPaginator
    private let simulation: Simulation
    private let log: Log
    private let checker: InvariantChecker<Product, Category?, ServerError>
    private let plan: JumpPlan
    /// Hears the offset of each page whose load a jump superseded in flight.
    private let superseding: (Int) -> Void
    /// The next gesture, once no load runs.
    private var next: (() -> Void)?
    private(set) var finished = false
    /// The offsets of the loads in flight that a jump made useless (the next page's, the first jump's).
    private(set) var superseded: [Int] = []

    init(
        paginator: ScrollingSession.ProductPaginator, simulation: Simulation, log: Log,
        checker: InvariantChecker<Product, Category?, ServerError>, plan: JumpPlan,
        superseding: @escaping (Int) -> Void
    ) {
        self.paginator = paginator
        self.simulation = simulation
        self.log = log
        self.checker = checker
        self.plan = plan
        self.superseding = superseding
    }

    /// Records that the load of the page at `offset`, in flight, is about to be superseded.
    private func supersede(_ offset: Int) {
        superseded.append(offset)
        superseding(offset)
    }

    func start() {
        log.write(.user, "refresh()", "opens the list: its first page, and a placeholder for every other product")
        checker.willRefresh()
        paginator.refresh()
        whenQuiet { [self] in scrollToTheEndOfThePage() }
    }

    /// Runs the next gesture once the paginator is quiet (called at every snapshot).
    func paginatorChanged() {
        let states = paginator.loadStates.value
        guard next != nil, !states.refresh.isLoading, !states.prepend.isLoading, !states.append.isLoading else {
            return
        }
        let gesture = next
        next = nil
        simulation.schedule(after: JumpRun.pause) { gesture?() }
    }

    /// Runs `gesture` after a pause once no load runs: at once if none does.
    private func whenQuiet(_ gesture: @escaping () -> Void) {
        next = gesture
        paginatorChanged()
    }

    private func scrollToTheEndOfThePage() {
        let row = plan.pageSize - 1
        log.write(.user, "preload(index: \(row))", "scrolls to the last loaded row: the next page starts loading")
        paginator.preload(index: row)
        simulation.schedule(after: JumpRun.frame) { [self] in dragToTheMiddle() }
    }

    private func dragToTheMiddle() {
        let row = plan.middleRow
        log.write(
            .user, "preload(index: \(row))",
            "drags the scroll bar to row \(row), \(row - (plan.pageSize - 1)) slots past the loaded rows")
        log.write(
            .demo, "jump",
            "farther than jumpThreshold \(plan.threshold): the page at offset \(plan.firstJump) loads directly, "
                + "none in between; the load in flight is superseded, its answer never applied")
        checker.willRefresh()
        if paginator.loadStates.value.append.isLoading { supersede(plan.nextPage) }
        paginator.preload(index: row)
        simulation.schedule(after: JumpRun.frame) { [self] in dragOn() }
    }

    private func dragOn() {
        let row = plan.farRow
        log.write(.user, "preload(index: \(row))", "drags on to row \(row) before that page arrives")
        log.write(
            .demo, "jump",
            "the page at offset \(plan.secondJump) loads directly; the jump to offset \(plan.firstJump) is superseded")
        checker.willRefresh()
        if paginator.loadStates.value.refresh.isLoading { supersede(plan.firstJump) }
        paginator.preload(index: row)
        whenQuiet { [self] in scrollUp() }
    }

    private func scrollUp() {
        let row = plan.secondJump - 1
        log.write(.user, "preload(index: \(row))", "scrolls a row up, onto a placeholder: the page above loads")
        paginator.preload(index: row)
        whenQuiet { [self] in scrollDown() }
    }

    private func scrollDown() {
        let row = min(plan.secondJump + plan.pageSize, plan.count - 1)
        log.write(.user, "preload(index: \(row))", "scrolls down past the jumped-to page: the page below loads")
        paginator.preload(index: row)
        whenQuiet { [self] in
            finished = true
            log.write(.user, "stops", "the list is quiet")
        }
    }
}
