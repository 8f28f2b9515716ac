import Reactive
import Stapler

/// The jump scene, last of the default run: a long list shown at full length with placeholders, where a
/// drag of the scroll bar far into them loads the page under the finger directly.
///
/// The list opens at its first page; the `slots` show every product's place (a placeholder for each row
/// not loaded), so the scroll bar is true from the start. The user scrolls to the last loaded row (the
/// next page starts loading), then drags the scroll bar to the middle: a `preload(index:)` that far into
/// the placeholders (more than `jumpThreshold` slots from the loaded rows) requests the page of that
/// slot and no page in between, and supersedes the load in flight, whose request is disposed. Still
/// dragging, the user goes on to four fifths of the list: the second jump supersedes the first. Once it
/// lands, the user scrolls a row up and a page down, and the pages beside it load at its edges.
///
/// The scene checks that no page between the first and the jump targets was requested, that the rows of
/// every superseded load never showed in the slots, and that the slots always kept the list's length.
/// Its server does not fail at random (the scene is scripted step by step); it answers with the usual
/// latency.
@MainActor
struct JumpRun {
    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// How long the simulated user looks at a screen before the next gesture, and one frame of a drag.
    static let pause = Duration.milliseconds(400)
    static let frame = Duration.milliseconds(16)

    /// Plays the scene to its end and sums it up.
    func run() -> SceneResult {
        let pageSize = options.simulatedPageSize
        let count = options.longItemCount
        var random = SplitMix(seed: options.seed ^ 0x6A75_6D70)
        let catalog = SimulatedCatalog(count: count, random: &random)
        let backend = SimulatedBackend(
            catalog: catalog, simulation: simulation, log: log, latency: options.latency, failureRate: 0,
            faults: .none, random: random)
        let plan = JumpPlan(count: count, pageSize: pageSize)
        log.chapter(
            "A jump to the middle: \(count) products with placeholders, pages of \(pageSize), "
                + "jumpThreshold \(plan.threshold)")
        guard plan.canJump else {
            log.write(.demo, "skipped", "a list of \(count) products in pages of \(pageSize) is too short to jump in")
            return SceneResult(
                summary: "  jump         skipped: too short to jump in", violations: [], checks: 0, complete: true,
                gaveUp: false)
        }
        let paginator = ScrollingSession.ProductPaginator(
            source: backend.source, query: nil,
            options: PagingOptions(
                pageSize: pageSize, prefetchDistance: plan.prefetchDistance,
                placeholders: .jumping(threshold: plan.threshold)))
        let checker = InvariantChecker<Product, Category?, ServerError>(
            query: nil, log: log, expectedIDs: { catalog.ids(for: $0) }, describeQuery: { $0.logName })
        let ids = catalog.ids(for: nil)
        let watch = SlotsWatcher(count: count)
        let script = JumpSession(paginator: paginator, simulation: simulation, log: log, checker: checker, plan: plan) {
            watch.supersede(ids[$0..<min($0 + pageSize, count)])
        }

        let observing = CompositeDisposable()
        observing += PaginatorLogger.attach(to: paginator, log: log)
        observing += checker.watch(paginator)
        observing += paginator.slotUpdates.observeValues { update in
            log.write(.paginator, "slots", Self.describe(update.slots))
            for message in watch.check(update.slots) { log.write(.check, "INVARIANT BROKEN", message) }
        }
        // The simulation runs on the main thread, where the paginator delivers (it answers synchronously).
        observing += paginator.snapshot.signal.observeValues { _ in
            MainActor.assumeIsolated { script.paginatorChanged() }
        }
        simulation.schedule(after: .zero) { script.start() }
        simulation.run()
        observing.dispose()

        let requested = backend.statistics.offsets
        var violations = checker.violations + watch.violations
        let skipped = requested.filter { plan.skipped.contains($0) }
        if !skipped.isEmpty {
            violations.append(log.broken("pages between the loaded rows and a jump were requested: \(skipped)"))
        }
        let statistics = backend.statistics
        let superseded = script.superseded
        if script.finished, statistics.cancelled != superseded.count {
            violations.append(
                log.broken(
                    "\(statistics.cancelled) requests were disposed, not the \(superseded.count) in flight that "
                        + "the jumps made useless"))
        }
        let slots = paginator.slots.value
        var data = false
        if case .data = paginator.state.value { data = true }
        let complete = script.finished && data
        log.write(
            .demo, "requests",
            "offsets \(requested.map(String.init).joined(separator: ", ")): the pages jumped over (offsets "
                + "\(plan.nextPage + pageSize) to \(plan.secondJump - 2 * pageSize), but the first jump's "
                + "\(plan.firstJump)) were never requested; "
                + (superseded.isEmpty
                    ? "no load was in flight at a jump"
                    : "the superseded loads (offsets \(superseded.map(String.init).joined(separator: " and "))) "
                        + "never showed a row"))
        let summary = """
              jump         \(count) slots at all times; jumped to row \(plan.middleRow), then to row \(plan.farRow): \
            \(slots.items.count) products loaded (\(slots.items.idSummary)), \(slots.placeholdersBefore) placeholders \
            before, \(slots.placeholdersAfter) after
              jump server  \(plural(statistics.requests, "request", "requests")): \(statistics.answered) answered, \
            \(statistics.cancelled) cancelled (superseded by a jump), none for the pages jumped over
            """
        return SceneResult(
            summary: summary, violations: violations, checks: checker.checkCount + watch.checks, complete: complete,
            gaveUp: false)
    }

    /// The slots in a line: where the loaded rows sit among the placeholders.
    nonisolated static func describe(_ slots: PagedSlots<Product>) -> String {
        let start = slots.placeholdersBefore
        return
            "\(slots.count) slots: \(slots.placeholdersBefore) placeholders, rows \(start)..<\(start + slots.items.count) "
            + "loaded (\(slots.items.idSummary)), \(slots.placeholdersAfter) placeholders"
    }
}
