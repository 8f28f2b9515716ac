import Foundation
import Stapler

/// The default run: the shop, the chat, the server that hangs, the long list, the relaunch and the jump.
///
/// A scripted session against the simulated shop, then the chat scenes (``ChatRun``), the scene whose
/// server hangs (``HangingServerRun``), the long list with a memory bound (``BoundedListRun``), the
/// relaunch (``RelaunchRun``) and the jump to the middle of a list with placeholders (``JumpRun``), each
/// unless the user gave up before, then a summary. With
/// `--restore-from`, the relaunch's second launch alone.
@MainActor
enum SimulatedRun {
    static func run(_ options: DemoOptions) -> ExitStatus {
        run(options, on: Simulation(speed: options.speed), loggingTo: .standardOutput)
    }

    /// The run on `simulation`, whose playback clock paces every scene, logged to `destination`.
    static func run(_ options: DemoOptions, on simulation: Simulation, loggingTo destination: Log.Destination)
        -> ExitStatus
    {
        let clock = simulation.clock
        let log = Log(to: destination) { clock.withLock { $0 } }
        if let url = options.restoreFrom {
            return restoreOnly(from: url, options: options, simulation: simulation, log: log)
        }
        var random = SplitMix(seed: options.seed)
        let catalog = SimulatedCatalog(count: options.itemCount, random: &random)
        let pageSize = options.simulatedPageSize
        let pageCount = (options.itemCount + pageSize - 1) / pageSize
        // The story needs a few pages: the third fails once, the fifth is slow and gets refreshed
        // over. Shorter lists play what fits.
        let pullAtPages = max(1, min(4, pageCount - 1))
        let faults = SimulatedBackend.Faults(
            failingOffset: pageCount > 2 ? 2 * pageSize : nil,
            slowOffset: pageCount > 1 ? pullAtPages * pageSize : nil,
            slowLatency: max(.milliseconds(1500), options.latency * 6))
        let backend = SimulatedBackend(
            catalog: catalog, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, faults: faults, random: random)
        let paginator = Paginator(source: backend.source, pageSize: pageSize, query: nil)
        let checker = InvariantChecker<Product, Category?, ServerError>(
            query: nil, log: log, expectedIDs: { catalog.ids(for: $0) }, describeQuery: { $0.logName })

        log.plain(
            """
            Stapler demo: a Paginator over a simulated shop API, GET /products?offset=&limit=&category=
            \(options.itemCount) products, pages of \(pageSize), latency about \(Log.milliseconds(options.latency)), \
            failure rate \(options.failureRate), seed \(options.seed). Times are the simulation's clock.
            Every line marked "paginator" is a change that an observer of that property received.

            """)
        log.heading()
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        let session = ScriptedSession(
            paginator: paginator, simulation: simulation, log: log, checker: checker,
            maximumRetries: options.retries, pullAtPages: pullAtPages, searchCategory: catalog.largestCategory)
        session.start()
        simulation.run()
        logging.dispose()
        checking.dispose()
        let chat = session.outcome.gaveUp ? nil : ChatRun(options: options, simulation: simulation, log: log).run()
        let hanging =
            (chat?.gaveUp ?? true) ? nil : HangingServerRun(options: options, simulation: simulation, log: log).run()
        var later: [SceneResult] = []
        if let hanging, !hanging.gaveUp {
            later.append(BoundedListRun(options: options, simulation: simulation, log: log).run())
        }
        if let bounded = later.last, !bounded.gaveUp {
            later.append(RelaunchRun(options: options, simulation: simulation, log: log).run())
        }
        if later.count == 2, let relaunch = later.last, !relaunch.gaveUp {
            later.append(JumpRun(options: options, simulation: simulation, log: log).run())
        }

        let snapshot = paginator.snapshot.value
        let outcome = session.outcome
        let statistics = backend.statistics
        let violations =
            checker.violations + (chat?.violations ?? []) + (hanging?.violations ?? []) + later.flatMap(\.violations)
        let checks =
            checker.checkCount + (chat?.checks ?? 0) + (hanging?.checks ?? 0) + later.reduce(0) { $0 + $1.checks }
        let query: Category? = outcome.searches > 0 ? catalog.largestCategory : nil
        let expected = catalog.ids(for: query).count
        let complete = snapshot.items.count == expected && snapshot.isEndReached
        log.plain(
            """

            ── Summary
              time         \(Log.format(simulation.now)) on the simulation's clock
              requests     \(statistics.requests): \(statistics.answered) answered, \(statistics.failed) failed, \
            \(statistics.cancelled) cancelled
              user         \(plural(outcome.refreshes, "refresh", "refreshes")), \(plural(outcome.searches, "search", "searches")), \
            \(plural(outcome.retries, "retry", "retries"))\
            \(outcome.gaveUp ? ", then gave up" : "")
              list         \(snapshot.items.count) of the \(expected) products of \(query.logName)\
            \(complete ? ", the end reached" : ", incomplete"), state \(snapshot.state.name)
            """)
        if let chat { log.plain(chat.summary) }
        if let hanging { log.plain(hanging.summary) }
        for scene in later { log.plain(scene.summary) }
        log.plain(
            "  invariants   \(violations.isEmpty ? "all held" : "\(violations.count) BROKEN") "
                + "(\(checks) snapshots and changes checked)")
        if !violations.isEmpty { return .invariantBroken }
        let chatComplete = chat.map { !$0.gaveUp && $0.complete } ?? false
        let hangingComplete = hanging.map { !$0.gaveUp && $0.complete } ?? false
        let laterComplete = later.count == 3 && later.allSatisfy { !$0.gaveUp && $0.complete }
        return outcome.gaveUp || !complete || !chatComplete || !hangingComplete || !laterComplete ? .gaveUp : .success
    }

    /// `--restore-from`: the relaunch scene's second launch alone, from a file an earlier run saved.
    private static func restoreOnly(from url: URL, options: DemoOptions, simulation: Simulation, log: Log) -> ExitStatus
    {
        log.plain(
            """
            Stapler demo: the relaunch of a list saved by an earlier run (--restore-from \(url.path)), over the \
            simulated shop's long list of \(options.longItemCount) products, pages of \(options.simulatedPageSize), \
            maxPages \(options.maxPages), seed \(options.seed). Times are the simulation's clock.

            """)
        log.heading()
        let result = RelaunchRun(options: options, simulation: simulation, log: log).secondLaunchOnly(from: url)
        log.plain("\n── Summary\n  time         \(Log.format(simulation.now)) on the simulation's clock")
        log.plain(result.summary)
        log.plain(
            "  invariants   \(result.violations.isEmpty ? "all held" : "\(result.violations.count) BROKEN") "
                + "(\(result.checks) snapshots and changes checked)")
        if !result.violations.isEmpty { return .invariantBroken }
        return result.gaveUp || !result.complete ? .gaveUp : .success
    }
}
