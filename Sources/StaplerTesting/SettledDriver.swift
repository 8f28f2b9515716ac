import Reactive
import Stapler

/// Waits until a paginator, or a list made from one, waits for nothing: the loop behind every
/// `settled(timeout:advancing:)` of the kit.
///
/// It asks the engine what is pending (never the load states, which may still read idle before a call's
/// change is delivered). While work is pending and a `TestScheduler` is given, it runs the work already
/// due, gives work outside virtual time (an answer hopping to the caller's actor, another thread) a turn,
/// and then moves the clock to the next one-shot action only, so a source's latency, a delivery hop or a
/// retry's backoff runs in virtual time and a repeating timer (a poll) alone never moves it. Work that no
/// scheduler it drives will finish is waited for in real time, up to the timeout after the driver's last
/// step of its own: the kit's only reading of a wall clock. It checks the caller's cancellation on every
/// turn, and gives up after ``stepLimit`` steps of virtual time.
struct SettledDriver {
    let probe: any QuiescenceProbe
    let scheduler: TestScheduler?
    let timeout: Duration

    /// How long one wait for work outside virtual time lasts while a test scheduler is driven: such work
    /// may put new work on the scheduler without a step of the engine, so the driver looks again at least
    /// this often.
    static let slice = Duration.milliseconds(10)

    /// Returns once the paginator is settled; then throws the misuse a fake source reported on a failed
    /// edge, if any.
    ///
    /// - Throws: ``TestKitError/notSettled(pending:)`` when work is still pending after `timeout` (or when
    ///   the calling task is cancelled); the misuse a fake source reported (an unknown key).
    nonisolated(nonsending) func run() async throws(TestKitError) {
        let clock = ContinuousClock()
        // The real time allowed for work the driver does not drive, counted from the driver's last step of
        // its own (a moved clock): virtual-time work is always runnable, however slow the machine.
        var deadline = clock.now.advanced(by: timeout)
        var steps = 0
        while true {
            let pending = probe.pendingWork()
            if pending.isEmpty { break }
            guard !Task.isCancelled, steps < Self.stepLimit else {
                throw .notSettled(pending: Self.describe(pending))
            }
            if let scheduler {
                if let due = scheduler.nextDue, due <= scheduler.now {
                    steps += 1
                    scheduler.advance()
                    deadline = clock.now.advanced(by: timeout)
                    continue
                }
                // Work outside virtual time gets a turn before the clock moves.
                await Task.yield()
                if probe.pendingWork().isEmpty { break }
                if let due = scheduler.nextOneShotDue {
                    steps += 1
                    scheduler.advance(to: max(due, scheduler.now))
                    deadline = clock.now.advanced(by: timeout)
                    continue
                }
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .notSettled(pending: Self.describe(pending)) }
            if scheduler == nil {
                await Self.wait(atMost: remaining) { await probe.settled() }
            } else {
                await Self.wait(atMost: min(remaining, Self.slice)) { await probe.progressed() }
            }
        }
        for failed in probe.failedLoads() {
            if let misuse = Self.misuse(in: failed.error) { throw misuse }
        }
    }

    /// How many times one wait may move the test scheduler's clock or run its due work: work that keeps
    /// scheduling more while the paginator stays busy fails the wait instead of running forever.
    static let stepLimit = 100_000

    /// Runs `work` until it returns or `limit` has passed, whichever comes first.
    nonisolated(nonsending) static func wait(atMost limit: Duration, _ work: @escaping @Sendable () async -> Void) async
    {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// The pending work, as the kit's error reports it.
    static func describe(_ pending: PendingEngineWork) -> [PendingWork] {
        var described = pending.loads.map { PendingWork.load($0.direction, key: $0.key) }
        if let direction = pending.retry { described.append(.retry(direction)) }
        if pending.undelivered { described.append(.deliveries) }
        return described
    }

    /// The kit's error that `error` is or carries: what a fake source fails a misused request with.
    static func misuse(in error: any Error) -> TestKitError? {
        if let error = error as? TestKitError { return error }
        return (error as? any TestKitErrorCarrying)?.testKitError
    }
}

/// An error that may carry a ``TestKitError``: a fake source's failure type adopts it, so that the kit's
/// waits rethrow the misuse (an unknown key) a source reported instead of returning a failed list.
public protocol TestKitErrorCarrying: Error {
    /// The kit's error this error carries, if it carries one.
    var testKitError: TestKitError? { get }
}
