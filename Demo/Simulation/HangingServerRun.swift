import Reactive
import Stapler

/// The last part of the default run, after the chat on the same clock and log: a news feed whose
/// server hangs on one page, paged by a paginator whose `PagingPolicy` has a `loadTimeout` and an
/// `AutoRetry` that run on the simulation's clock (``SimulationScheduler``), checked by its own
/// ``InvariantChecker``.
@MainActor
struct HangingServerRun {
    /// How the scene ended, for the summary and the exit status.
    struct Result {
        let summary: String
        let violations: [String]
        let checks: Int
        let complete: Bool
        let gaveUp: Bool
    }

    /// How many headlines the feed holds: three pages of the default size, whatever `--items` says.
    static let headlineCount = 30

    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// The policy of the scene: a timeout far beyond the feed's latency, and `--retries` automatic
    /// retries (none for `--retries 0`: `AutoRetry` needs at least one) whose jitter is seeded.
    static func policy(options: DemoOptions, simulation: Simulation) -> PagingPolicy {
        let random = LockedState(SplitMix(seed: options.seed ^ 0x6861_6E67))
        let autoRetry =
            options.retries > 0
            ? AutoRetry(
                maxRetries: options.retries, base: .milliseconds(500), factor: 2, maxDelay: .seconds(4), jitter: 0.25,
                random: { random.withLock { $0.nextUnit() } })
            : nil
        return PagingPolicy(
            loadTimeout: loadTimeout(options), autoRetry: autoRetry, clock: SimulationScheduler(simulation))
    }

    /// The load timeout: 2 s, or ten times the mean latency when that is longer.
    static func loadTimeout(_ options: DemoOptions) -> Duration {
        max(.seconds(2), options.latency * 10)
    }

    /// Plays the scene to its end and sums it up.
    func run() -> Result {
        let pageSize = options.simulatedPageSize
        let count = Self.headlineCount
        // The second page hangs; with a single page, the first.
        let hangingOffset = count > pageSize ? pageSize : 0
        let feed = HangingFeed(
            count: count, hangingOffset: hangingOffset, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, random: SplitMix(seed: options.seed ^ 0x6665_6564))
        let policy = Self.policy(options: options, simulation: simulation)
        let paginator = HangingServerSession.FeedPaginator(
            source: feed.source,
            options: PagingOptions(pageSize: pageSize, policy: policy))
        let checker = InvariantChecker<Headline, Void, ServerError>(
            query: (), log: log, expectedIDs: { _ in feed.ids }, describeQuery: { _ in "the feed" })

        log.chapter("A server that hangs: PagingPolicy's loadTimeout fails the page, AutoRetry asks again")
        let retries =
            policy.autoRetry.map {
                "autoRetry at most \(plural($0.maxRetries, "retry", "retries")) after 500 ms, doubling up to 4 s, "
                    + "jitter ±25 % from a seeded generator"
            } ?? "no autoRetry (--retries 0)"
        log.write(
            .demo, "policy",
            "loadTimeout \(Log.milliseconds(Self.loadTimeout(options))), \(retries), on the simulation's clock")
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        let session = HangingServerSession(
            paginator: paginator, simulation: simulation, log: log, checker: checker,
            maxRetries: policy.autoRetry?.maxRetries ?? 0)
        session.start()
        simulation.run()
        logging.dispose()
        checking.dispose()

        let snapshot = paginator.snapshot.value
        let outcome = session.outcome
        let statistics = feed.statistics
        let complete = snapshot.items.map(\.id) == feed.ids && snapshot.isEndReached
        let summary = """
              feed         \(snapshot.items.count) of the \(count) headlines\
            \(complete ? ", the end reached" : ", incomplete"), state \(snapshot.state.name)
              feed policy  \(plural(outcome.timeouts, "time-out", "time-outs")), \
            \(plural(outcome.automaticRetries, "automatic retry", "automatic retries"))\
            \(outcome.gaveUp ? ", then the user gave up" : ", no Retry tapped")
              feed server  \(plural(statistics.requests, "request", "requests")): \(statistics.answered) answered, \
            \(statistics.failed) failed, \(statistics.hung) hung
            """
        return Result(
            summary: summary, violations: checker.violations, checks: checker.checkCount, complete: complete,
            gaveUp: outcome.gaveUp)
    }
}
