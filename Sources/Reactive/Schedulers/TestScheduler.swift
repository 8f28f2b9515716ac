#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A scheduler in virtual time, which moves only when a test advances it.
///
/// Nothing runs when it is scheduled: work waits until the test calls ``advance()``, ``advance(by:)``,
/// ``advance(to:)`` or ``run()``, which run the work that falls due, on the calling thread, in time
/// order. So every time-based operator can be tested without sleeping, with exact virtual timestamps:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let (signal, input) = Signal<Int, Never>.pipe()
/// signal.delay(.seconds(1), on: scheduler).observeValues { print($0, scheduler.now) }
/// input.send(value: 1)
/// scheduler.advance(by: .milliseconds(999))  // prints nothing
/// scheduler.advance(by: .milliseconds(1))    // prints "1 1.0 seconds"
/// #expect(scheduler.pendingCount == 0)
/// ```
///
/// Guarantees:
/// - **Time order, FIFO ties.** Work runs in order of due instant; work due at the same instant runs in
///   the order it was scheduled (a monotonically increasing sequence number breaks ties). Each tick of
///   a repeating action is queued afresh, behind work already due at that instant.
/// - **The window includes new work.** Work that an action schedules, and that falls due within the
///   window being advanced, runs in the same call, in time order. Work due exactly at the end of the
///   window runs; ``advance()`` (a window of zero) runs everything already due.
/// - **`now` while running** is the due instant of the running action; after an advance it is the end
///   of the window. Time never moves backwards.
/// - **Reentrancy.** No lock is held while an action runs, so an action may schedule, cancel, read
///   ``now`` or even advance the scheduler.
/// - **One driver.** Scheduling, cancelling and reading are thread safe, but the scheduler is meant to be
///   driven (advanced, run) by one thread at a time, like every action of a serial scheduler: advancing
///   it from a second thread while another thread is advancing it traps.
public final class TestScheduler: TimeScheduler {
    // Guarded by its own lock: the clock, the queue of work and the driving thread.
    private let state: LockedState<State>

    private struct State {
        var now: SchedulerInstant
        /// Pending work, sorted by due instant, then sequence number.
        var queue: [Work] = []
        var nextSequence: UInt64 = 0
        var nextID: UInt64 = 0
        var oneShotCount = 0
        var driver: pthread_t?
        var driveDepth = 0

        mutating func insert(_ work: Work) {
            var low = 0
            var high = queue.count
            while low < high {
                let middle = (low + high) / 2
                if (queue[middle].due, queue[middle].sequence) < (work.due, work.sequence) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            queue.insert(work, at: low)
        }

        mutating func makeSequence() -> UInt64 {
            defer { nextSequence &+= 1 }
            return nextSequence
        }
    }

    private struct Work {
        let id: UInt64
        var due: SchedulerInstant
        var sequence: UInt64
        let interval: Duration?
        let action: @Sendable () -> Void
    }

    /// Creates a scheduler whose clock reads `now`.
    ///
    /// - Parameter now: The starting instant; ``SchedulerInstant/origin`` by default, so that ``now``
    ///   reads as the virtual time elapsed since the test began.
    public init(startingAt now: SchedulerInstant = .origin) {
        state = LockedState(State(now: now))
    }

    /// The current virtual instant.
    public var now: SchedulerInstant {
        state.withLock { $0.now }
    }

    /// How many actions are waiting to run (a repeating action counts once until it is cancelled).
    ///
    /// A test that ends with pending work has left a timer or a hop behind: assert that this is zero.
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    /// The due instant of the next action to run, or `nil` if nothing is pending.
    public var nextDue: SchedulerInstant? {
        state.withLock { $0.queue.first?.due }
    }

    /// The due instant of the next one-shot action (scheduled without a repeat interval), or `nil` if only
    /// repeating actions, or nothing, are pending: how far ``run()`` would go.
    public var nextOneShotDue: SchedulerInstant? {
        state.withLock { $0.queue.first { $0.interval == nil }?.due }
    }

    // MARK: Scheduling

    /// Queues `action` to run at the current instant, after the work already due.
    ///
    /// It runs at the next ``advance()`` (or any later advance or ``run()``), never inside this call.
    ///
    /// - Parameter action: The work.
    /// - Returns: A disposable that removes the action from the queue if it has not run.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        enqueue(delay: .zero, interval: nil, action)
    }

    /// Queues `action` to run `delay` from now.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; negative means zero.
    ///   - action: The work.
    /// - Returns: A disposable that removes the action from the queue if it has not run.
    @discardableResult
    public func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        enqueue(delay: delay, interval: nil, action)
    }

    /// Queues `action` to run `delay` from now, then every `interval` after that due instant.
    ///
    /// - Parameters:
    ///   - delay: How long to wait before the first run; negative means zero.
    ///   - interval: The time between two runs; it must be greater than zero.
    ///   - leeway: Ignored: virtual time is exact.
    ///   - action: The work, run once per tick.
    /// - Returns: A disposable that removes the repetition from the queue.
    @discardableResult
    public func schedule(
        after delay: Duration,
        interval: Duration,
        leeway: Duration,
        action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        requirePositiveInterval(interval, "interval")
        return enqueue(delay: delay, interval: interval, action)
    }

    private func enqueue(
        delay: Duration,
        interval: Duration?,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID &+= 1
            let due = state.now + max(delay, .zero)
            state.insert(Work(id: id, due: due, sequence: state.makeSequence(), interval: interval, action: action))
            if interval == nil { state.oneShotCount += 1 }
            return id
        }
        return AnyDisposable { [weak self] in self?.cancel(id) }
    }

    /// Removes the work `id` from the queue; its action is released outside the lock.
    private func cancel(_ id: UInt64) {
        let removed = state.withLock { state -> Work? in
            guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
            let work = state.queue.remove(at: index)
            if work.interval == nil { state.oneShotCount -= 1 }
            return work
        }
        _ = removed
    }

    // MARK: Driving

    /// Runs every action already due, without moving the clock: the same as `advance(by: .zero)`.
    public func advance() {
        advance(by: .zero)
    }

    /// Moves the clock forward by `duration`, running every action that falls due on the way.
    ///
    /// - Parameter duration: How far to move; it must not be negative.
    public func advance(by duration: Duration) {
        guard duration >= .zero else {
            fatalError("TestScheduler.advance(by:): duration must not be negative, got \(duration)")
        }
        advance(to: now + duration)
    }

    /// Moves the clock to `instant`, running every action due up to and including it, in time order.
    ///
    /// Work that those actions schedule runs too if it falls due by `instant`. After the call, ``now`` is
    /// `instant`.
    ///
    /// - Parameter instant: Where to move the clock. Moving it backwards is a programmer error and traps
    ///   (a test that asks for it has lost track of time).
    public func advance(to instant: SchedulerInstant) {
        beginDriving()
        defer { endDriving() }
        let current = now
        guard instant >= current else {
            fatalError("TestScheduler.advance(to:): instant \(instant) is earlier than now (\(current))")
        }
        while let action = next(upTo: instant) {
            action()
        }
    }

    /// Runs every one-shot action, including those scheduled by the actions it runs, moving the clock to
    /// each one's due instant in turn.
    ///
    /// Repeating actions tick as the clock passes them, but alone they would keep the queue full forever:
    /// `run()` returns once only repeating work is left (and at once if nothing is pending).
    public func run() {
        beginDriving()
        defer { endDriving() }
        while let action = next(upTo: nil) {
            action()
        }
    }

    /// Pops the next action due by `limit` (or the next one, while one-shot work is left, if `limit` is
    /// `nil`), moving the clock to its due instant; at the end, moves the clock to `limit`.
    private func next(upTo limit: SchedulerInstant?) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let first = state.queue.first,
                limit.map({ first.due <= $0 }) ?? (state.oneShotCount > 0)
            else {
                if let limit, limit > state.now { state.now = limit }
                return nil
            }
            state.queue.removeFirst()
            if first.due > state.now { state.now = first.due }
            if let interval = first.interval {
                var again = first
                again.due = first.due + interval
                again.sequence = state.makeSequence()
                state.insert(again)
            } else {
                state.oneShotCount -= 1
            }
            return first.action
        }
    }

    private func beginDriving() {
        let current = pthread_self()
        state.withLock { state in
            if let driver = state.driver, pthread_equal(driver, current) == 0 {
                fatalError("TestScheduler is driven by one thread: another thread is advancing it")
            }
            state.driver = current
            state.driveDepth += 1
        }
    }

    private func endDriving() {
        state.withLock { state in
            state.driveDepth -= 1
            if state.driveDepth == 0 { state.driver = nil }
        }
    }
}
