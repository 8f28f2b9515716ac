import Reactive

/// A one-shot gate for `async` code: `wait()` suspends until `open()` is called (at once if it was).
///
/// Lets a test hold an `async` operation at a known point without sleeping.
public final class AsyncGate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    /// Suspends until the gate opens.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate and releases every waiter.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Records the runs of producers: how many started and ended, and weak references to each run's
/// lifetime and input observer, so a test can prove that every run ended and was freed.
public final class RunLog: Sendable {
    private struct Run {
        weak var lifetime: Lifetime?
        weak var input: AnyObject?
    }

    private let log = Locked((started: 0, ended: 0, runs: [Run]()))

    public init() {}

    /// Call at the start of a run with its observer and lifetime.
    public func track<Value, Error>(_ input: Signal<Value, Error>.Observer, _ lifetime: Lifetime) {
        log.withLock { log in
            log.started += 1
            log.runs.append(Run(lifetime: lifetime, input: input))
        }
        lifetime.observeEnded { [log] in log.withLock { $0.ended += 1 } }
    }

    public var started: Int { log.withLock { $0.started } }

    public var ended: Int { log.withLock { $0.ended } }

    /// How many runs' lifetimes or input observers are still alive.
    public var alive: Int {
        log.withLock { log in log.runs.count { $0.lifetime != nil || $0.input != nil } }
    }
}

/// A weak reference that `@Sendable` closures (such as an async `eventually` condition) may read.
public final class WeakReference: Sendable {
    private struct Box {
        weak var object: AnyObject?
    }

    private let box: Locked<Box>

    public init(_ object: AnyObject?) {
        box = Locked(Box(object: object))
    }

    /// Whether the object has been freed.
    public var isFreed: Bool { box.withLock { $0.object == nil } }
}

/// Waits until `condition` holds, checking it every millisecond, at most `polls` times.
///
/// Like the async `eventually`, but bounded by a number of checks rather than by a wall-clock deadline:
/// while other tests saturate the cooperative thread pool (Thread Sanitizer runs on 2 cores), the
/// waiting task is not resumed and uses up no checks, so a starved pool cannot fail the test, and a
/// condition that never holds still ends the wait (after at least `polls` milliseconds).
public func eventuallyPolling(polls: Int = 60_000, _ condition: @Sendable () -> Bool) async -> Bool {
    for _ in 0..<polls {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// The value of `task` if it finishes within `polls` checks (see `eventuallyPolling`), else `nil`,
/// and the task is then cancelled.
///
/// Keeps a test bounded when the code under test fails to end a task: the test then reports a
/// failure instead of hanging (the stuck task is leaked).
public func value<Success: Sendable>(of task: Task<Success, Never>, polls: Int = 60_000) async -> Success? {
    let result = Locked<Success?>(nil)
    let finished = Locked(false)
    Task {
        let value = await task.value
        result.value = value
        finished.value = true
    }
    guard await eventuallyPolling(polls: polls, { finished.value }) else {
        task.cancel()
        return nil
    }
    return result.value
}
