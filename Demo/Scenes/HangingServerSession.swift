import Reactive
import Stapler

/// The user of the scene whose server hangs: a news feed paged by a paginator with a
/// `PagingPolicy`, a `loadTimeout` and an `AutoRetry`.
///
/// The user opens the feed with `refresh()` and scrolls with `preload(index:)`, and never taps Retry:
/// when a page hangs, the policy's timeout fails it with `timedOut` and its automatic retry asks for it
/// again after a backoff. The user only waits, and gives up when the failure stands: when the policy's
/// retries are spent (the count of failures in a row passes `maxRetries`, as the paginator counts them)
/// or the error is not retryable (`PagingError.isRetryable`).
@MainActor
final class HangingServerSession {
    typealias FeedPaginator = Paginator<Headline, Int, Void, HeadlinesPage, ServerError>

    /// How the scene went, for the summary.
    struct Outcome {
        /// Failures the paginator announced (each one once).
        var failures = 0
        /// Of those, the loads that timed out.
        var timeouts = 0
        /// Loads the policy started again by itself.
        var automaticRetries = 0
        var gaveUp = false
        var finished = false
    }

    private let paginator: FeedPaginator
    private let simulation: Simulation
    private let log: Log
    private let checker: InvariantChecker<Headline, Void, ServerError>
    /// The policy's `maxRetries`, 0 without automatic retry.
    private let maxRetries: Int

    private let tick: Duration = .milliseconds(300)
    private var failuresInARow = 0
    /// The failure the user last said they wait on, counted by `outcome.failures`.
    private var awaitedFailure = 0
    private var watching: (any Disposable)?
    private(set) var outcome = Outcome()

    /// Creates the user of `paginator`, whose policy retries a failed page at most `maxRetries` times.
    init(
        paginator: FeedPaginator, simulation: Simulation, log: Log,
        checker: InvariantChecker<Headline, Void, ServerError>, maxRetries: Int
    ) {
        self.paginator = paginator
        self.simulation = simulation
        self.log = log
        self.checker = checker
        self.maxRetries = maxRetries
    }

    /// Schedules the first action; `Simulation.run()` plays the rest.
    func start() {
        watching = countFailures()
        simulation.schedule(after: .zero) { [self] in
            log.write(.user, "refresh()", "opens the news feed")
            checker.willRefresh()
            paginator.refresh()
            scheduleTick()
        }
    }

    /// Counts each failure once, as the paginator announces it, and each load the policy starts again
    /// (a move from an error state to a loading one that the user did not make).
    private func countFailures() -> any Disposable {
        let previous = LockedState(paginator.state.value)
        return paginator.state.signal.observeValues { [self] state in
            let old = previous.withLock { stored in
                defer { stored = state }
                return stored
            }
            MainActor.assumeIsolated {
                if let error = state.error {
                    outcome.failures += 1
                    failuresInARow += 1
                    if case .timedOut = error { outcome.timeouts += 1 }
                } else if old.error != nil, state.isLoading {
                    outcome.automaticRetries += 1
                } else if case .data = state {
                    failuresInARow = 0
                }
            }
        }
    }

    private func scheduleTick() {
        simulation.schedule(after: tick) { [self] in step() }
    }

    /// One look at the screen, and at most one action.
    private func step() {
        let snapshot = paginator.snapshot.value
        if let error = snapshot.state.error {
            if !error.isRetryable || failuresInARow > maxRetries {
                let why =
                    error.isRetryable
                    ? "after \(plural(maxRetries, "automatic retry", "automatic retries"))" : "and cannot be retried"
                log.write(.user, "gives up", "the page still fails \(why): \(error)")
                outcome.gaveUp = true
                watching?.dispose()
                return
            }
            if awaitedFailure != outcome.failures {
                awaitedFailure = outcome.failures
                log.write(.user, "waits", "sees the error footer (\(error)); the policy retries by itself")
            }
            return scheduleTick()
        }
        switch snapshot.state {
        case .data where snapshot.isEndReached:
            log.write(.user, "done", "sees the last row: \(snapshot.items.count) headlines, isEndReached")
            outcome.finished = true
            watching?.dispose()
            return
        case .data:
            let last = snapshot.items.count - 1
            log.write(.user, "preload(index:)", "scrolls to row \(last), the last one loaded")
            paginator.preload(index: last)
        case .noData:
            log.write(.user, "done", "sees an empty feed")
            outcome.finished = true
            watching?.dispose()
            return
        default:
            break
        }
        scheduleTick()
    }
}
