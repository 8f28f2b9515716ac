/// A scheduler that can also run actions later, once or repeatedly, in its own time.
///
/// Time is measured on the scheduler's own monotonic clock and read through ``now``: a
/// ``QueueScheduler`` uses the system's uptime clock, a ``TestScheduler`` a virtual clock that moves only
/// when a test advances it. Delays are `Duration`s relative to ``now``.
///
/// Beyond the guarantees of ``Scheduler``:
/// - An action never runs before it is due, and ``now`` as read inside an action is at least its due
///   time.
/// - Actions due at the same instant run in the order they were scheduled (FIFO).
/// - A negative delay is treated as zero.
///
/// ```swift
/// let timeout = scheduler.schedule(after: .seconds(5)) { print("too late") }
/// timeout.dispose()  // it never runs
/// ```
public protocol TimeScheduler: Scheduler {
    /// The current instant of this scheduler's clock; it never moves backwards.
    var now: SchedulerInstant { get }

    /// Runs `action` once, `delay` from now.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative means as soon as possible, after the actions
    ///     already due.
    ///   - action: The work.
    /// - Returns: A disposable that cancels the action if it has not started yet.
    @discardableResult
    func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` first `delay` from now, then every `interval`, until the returned disposable is
    /// disposed.
    ///
    /// - Parameters:
    ///   - delay: How long to wait before the first run; negative means zero.
    ///   - interval: The time between two runs. It must be greater than zero.
    ///   - leeway: How late the scheduler may run each action to save energy; a hint that a virtual
    ///     scheduler ignores.
    ///   - action: The work, run once per tick.
    /// - Returns: A disposable that stops the repetition; no run starts after its `dispose()` returns.
    @discardableResult
    func schedule(
        after delay: Duration,
        interval: Duration,
        leeway: Duration,
        action: @escaping @Sendable () -> Void
    ) -> any Disposable
}

extension TimeScheduler {
    /// Runs `action` first `delay` from now, then every `interval`, with no leeway.
    ///
    /// See ``TimeScheduler/schedule(after:interval:leeway:action:)``.
    ///
    /// - Parameters:
    ///   - delay: How long to wait before the first run; negative means zero.
    ///   - interval: The time between two runs. It must be greater than zero.
    ///   - action: The work, run once per tick.
    /// - Returns: A disposable that stops the repetition.
    @discardableResult
    public func schedule(
        after delay: Duration,
        interval: Duration,
        action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        schedule(after: delay, interval: interval, leeway: .zero, action: action)
    }
}

/// Traps unless `interval` is a valid repeating interval; `parameter` names it in the message.
func requirePositiveInterval(_ interval: Duration, _ parameter: String) {
    guard interval > .zero else {
        fatalError("\(parameter) must be greater than zero, got \(interval)")
    }
}

/// Traps if `duration` is negative; `parameter` names it in the message.
func requireNonNegative(_ duration: Duration, _ parameter: String) {
    guard duration >= .zero else {
        fatalError("\(parameter) must not be negative, got \(duration)")
    }
}
