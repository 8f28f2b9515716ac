import Dispatch

/// A scheduler that runs actions on a serial Dispatch queue.
///
/// Actions never overlap and run in the order they were scheduled (delayed ones: in the order they
/// fall due). ``now`` reads the system's monotonic uptime clock, the one Dispatch deadlines use.
///
/// ```swift
/// let background = QueueScheduler(label: "org.example.parsing", qos: .utility)
/// signal.observe(on: background).observeValues { parse($0) }
/// counter.signal.observe(on: .main).observeValues { label.text = "\($0)" }
/// ```
public final class QueueScheduler: TimeScheduler {
    /// The serial queue the actions run on.
    private let queue: DispatchQueue

    private init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Creates a scheduler over a new serial queue.
    ///
    /// - Parameters:
    ///   - label: The queue's label, shown in debuggers and crash reports.
    ///   - qos: The quality of service of the work.
    ///   - target: A queue the new serial queue targets (its work then runs on `target`'s threads, still
    ///     one action at a time), or `nil` for the default global queue of `qos`.
    public convenience init(
        label: String = "org.stapler.Reactive.QueueScheduler",
        qos: DispatchQoS = .default,
        targeting target: DispatchQueue? = nil
    ) {
        self.init(queue: DispatchQueue(label: label, qos: qos, target: target))
    }

    /// The scheduler of the main queue, where UI work belongs.
    ///
    /// Its actions run only while the main queue is serviced (a run loop, `dispatchMain()`, or an app's
    /// main thread).
    public static let main = QueueScheduler(queue: .main)

    /// The current uptime of the system, as an instant.
    public var now: SchedulerInstant {
        SchedulerInstant(sinceOrigin: .nanoseconds(DispatchTime.now().uptimeNanoseconds))
    }

    /// Runs `action` on the queue, after the actions already queued.
    ///
    /// - Parameter action: The work.
    /// - Returns: A disposable that cancels the action if it has not started.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let scheduled = ScheduledAction(action)
        queue.async { scheduled.take()?() }
        return scheduled
    }

    /// Runs `action` on the queue once, `delay` from now.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; negative means zero.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the action if it has not started; cancelling releases the
    ///   action at once.
    @discardableResult
    public func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        let scheduled = ScheduledAction(action)
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { scheduled.take()?() }
        return scheduled
    }

    /// Runs `action` on the queue first `delay` from now, then every `interval`.
    ///
    /// Ticks that fall due while the queue is busy are coalesced by Dispatch, never run concurrently.
    ///
    /// - Parameters:
    ///   - delay: How long to wait before the first run; negative means zero.
    ///   - interval: The time between two runs; it must be greater than zero.
    ///   - leeway: How late Dispatch may run each tick to save energy.
    ///   - action: The work, run once per tick.
    /// - Returns: A disposable that stops the timer.
    @discardableResult
    public func schedule(
        after delay: Duration,
        interval: Duration,
        leeway: Duration,
        action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        requirePositiveInterval(interval, "interval")
        let scheduled = ScheduledAction(action)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + delay.dispatchInterval,
            repeating: interval.dispatchInterval,
            leeway: leeway.dispatchInterval
        )
        timer.setEventHandler { scheduled.current()?() }
        let handle = TimerHandle(timer)
        scheduled.onCancel { handle.cancel() }
        timer.resume()
        return scheduled
    }
}

/// A Dispatch timer source that can be cancelled from any thread.
private struct TimerHandle: @unchecked Sendable {
    // Guarded by Dispatch: a source's `cancel()` is thread safe, and nothing else is called on it here.
    let timer: any DispatchSourceTimer

    init(_ timer: any DispatchSourceTimer) {
        self.timer = timer
    }

    func cancel() {
        timer.cancel()
    }
}

extension Scheduler where Self == QueueScheduler {
    /// The scheduler of the main queue; see ``QueueScheduler/main``.
    public static var main: QueueScheduler { QueueScheduler.main }
}

extension Duration {
    /// This duration as a Dispatch interval in nanoseconds: zero if negative, clamped if huge.
    var dispatchInterval: DispatchTimeInterval {
        guard self > .zero else { return .nanoseconds(0) }
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, whole <= Int64(Int.max) - 1_000_000_000 else { return .nanoseconds(Int.max) }
        return .nanoseconds(Int(whole + attoseconds / 1_000_000_000))
    }
}
