import Stapler

/// The memory-bound scene of the default run, after the server that hangs, on the same clock and log:
/// a long list of products paged by a paginator with `maxPages`, scrolled from the top to the end and
/// back (``ScrollingSession``).
///
/// Going down, pages are dropped at the top (logged as `dropped` by ``MemoryBoundWatcher``, and as the
/// items change that removes them); going up, each dropped page reloads with the key it was loaded
/// with and pages go at the bottom. Besides the ``InvariantChecker`` (no duplicate, the list always a
/// run of consecutive products, every change consistent) and the watcher (never more than `maxPages` + 1,
/// `leadingCount` keeps the rows in place), the run checks that every product appeared on screen once
/// on the way down, in order, and once on the way up, in reverse order: nothing lost, nothing twice.
@MainActor
struct BoundedListRun {
    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// Plays the scene to its end and sums it up.
    func run() -> SceneResult {
        let pageSize = options.simulatedPageSize
        var random = SplitMix(seed: options.seed ^ 0x626F_756E)
        let catalog = SimulatedCatalog(count: options.longItemCount, random: &random)
        let backend = SimulatedBackend(
            catalog: catalog, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, faults: .none, random: random)
        let paginator = ScrollingSession.ProductPaginator(
            source: backend.source, query: nil,
            options: PagingOptions(
                pageSize: pageSize, prefetchDistance: options.boundedPrefetchDistance, maxPages: options.maxPages))
        let checker = InvariantChecker<Product, Category?, ServerError>(
            query: nil, log: log, expectedIDs: { catalog.ids(for: $0) }, describeQuery: { $0.logName })
        let watcher = MemoryBoundWatcher(maxPages: options.maxPages, pageSize: pageSize, log: log)

        log.chapter(
            "A long list with a memory bound: \(options.longItemCount) products, pages of \(pageSize), "
                + "maxPages \(options.maxPages), prefetchDistance \(options.boundedPrefetchDistance)")
        log.write(
            .demo, "paginator",
            "keeps at most \(options.maxPages) pages, never one within \(options.boundedPrefetchDistance) rows of the "
                + "row last shown (the screen shows \(DemoOptions.screenRows)); a dropped page reloads with its key")
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        let watching = watcher.watch(paginator)
        let session = ScrollingSession(
            paginator: paginator, simulation: simulation, log: log, maximumRetries: options.retries,
            goals: [.bottom, .top])
        simulation.schedule(after: .zero) {
            log.write(.user, "refresh()", "opens the long list")
            checker.willRefresh()
            paginator.refresh()
            session.start()
        }
        simulation.run()
        logging.dispose()
        checking.dispose()
        watching.dispose()

        let outcome = session.outcome
        let ids = catalog.ids(for: nil)
        var violations = checker.violations + watcher.violations
        if outcome.finished {
            if let mismatch = firstMismatch(outcome.shownIDs.first ?? [], ids) {
                violations.append(log.broken("going down, the rows shown were not every product once: \(mismatch)"))
            }
            if let mismatch = firstMismatch(outcome.shownIDs.last ?? [], ids.reversed()) {
                violations.append(log.broken("going up, the rows shown were not every product once: \(mismatch)"))
            }
        }
        let counts = watcher.counts
        let statistics = backend.statistics
        let pages = (ids.count + pageSize - 1) / pageSize
        let complete = outcome.finished && paginator.snapshot.value.loadStates.prepend.isEndReached
        let seen =
            !outcome.finished
            ? "incomplete" : violations.isEmpty ? "every product once going down and once going up, in order" : "BROKEN"
        let summary = """
              long list    \(ids.count) products in \(plural(pages, "page", "pages")), maxPages \(options.maxPages): \
            at most \(plural(counts.mostPages, "page", "pages")) held, \(counts.droppedAtTop) dropped at the top, \
            \(counts.droppedAtBottom) at the bottom
              long seen    \(seen)
              long user    \(plural(outcome.retries, "retry", "retries"))\(outcome.gaveUp ? ", then gave up" : "")
              long server  \(plural(statistics.requests, "request", "requests")): \(statistics.answered) answered, \
            \(statistics.failed) failed, \(statistics.cancelled) cancelled
            """
        return SceneResult(
            summary: summary, violations: violations, checks: checker.checkCount + watcher.checkCount,
            complete: complete, gaveUp: outcome.gaveUp)
    }
}

/// How a scene after the shop ended, for the summary and the exit status.
struct SceneResult {
    let summary: String
    let violations: [String]
    let checks: Int
    let complete: Bool
    let gaveUp: Bool
}

/// Where the ids shown first differ from those expected, if they do.
func firstMismatch(_ shown: [Int], _ expected: [Int]) -> String? {
    guard shown != expected else { return nil }
    guard let index = zip(shown, expected).enumerated().first(where: { $1.0 != $1.1 })?.offset else {
        return "\(shown.count) rows shown, \(expected.count) expected"
    }
    return "row \(index) shown was id \(shown[index]), expected id \(expected[index])"
}

extension Log {
    /// Logs a broken invariant that a scene found at its end, and returns its message.
    func broken(_ message: String) -> String {
        write(.check, "INVARIANT BROKEN", message)
        return message
    }
}

extension SimulatedBackend.Faults {
    /// No scripted fault: only the seeded random failures of `--failure-rate`.
    static var none: Self {
        Self(failingOffset: nil, slowOffset: nil, slowLatency: .zero)
    }
}
