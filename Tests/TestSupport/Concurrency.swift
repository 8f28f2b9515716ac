import Dispatch
import Foundation

/// Runs `body` on `threads` threads released together from a start barrier, and waits for all.
///
/// The barrier makes the racers overlap on a 2-core machine; give each body thousands of operations.
public func raceFromBarrier(threads: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        ready.enter()
        done.enter()
        Thread.detachNewThread {
            ready.leave()
            go.wait()
            body(index)
            done.leave()
        }
    }
    ready.wait()
    for _ in 0..<threads { go.signal() }
    done.wait()
}

/// Whether this test binary was built with Thread Sanitizer or Address Sanitizer, which make code several
/// times slower: a test's time limits (guards against deadlocks, not figures) scale with it.
public let runsUnderSanitizer: Bool = {
    #if canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
        let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
}()

/// How many rounds a long stress loop runs: `full` in a plain build, a fifth of it (at least 1) under a
/// sanitizer.
///
/// A sanitizer slows every round 5 to 20 times, and its value lies in the interleavings it checks, which a
/// fifth of the rounds still exercise; the plain passes run every round. CI runs the sanitizers' passes
/// side by side, where the cooperative pool's few threads make long async loops the slowest tests.
public func stressRounds(_ full: Int) -> Int {
    runsUnderSanitizer ? max(1, full / 5) : full
}

/// Runs `body` on a fresh thread and reports whether it finished within `seconds` (ten times as long,
/// at most 30 minutes, under a sanitizer).
///
/// A `false` result means a deadlock (the stuck thread is leaked, but the suite reports a failure
/// instead of hanging CI).
public func finishesWithin(
    seconds: Double = 10,
    stackSize: Int? = nil,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        finished.signal()
    }
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
    // A guard against deadlocks, not a figure: ten times as long under a sanitizer (at most 30 minutes),
    // which is slower still when the machine is loaded.
    let bound = runsUnderSanitizer ? min(seconds * 10, 1_800) : seconds
    return finished.wait(timeout: .now() + bound) == .success
}

/// Waits until `condition` holds, polling, for at most `seconds`. Returns whether it held.
public func eventually(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Waits until `condition` holds without blocking a thread of the cooperative pool, checking it every
/// millisecond for at least `seconds`. Use it in `async` tests: a blocking poll there can starve the tasks
/// it waits for.
///
/// The wait is counted in checks, not read from a clock (see `eventuallyPolling`): while other tests hold
/// every thread of the pool, neither the waiting task nor the tasks it waits for run, and that time must
/// not count against the wait. A wall-clock deadline failed async tests under Thread Sanitizer that way.
public func eventually(
    seconds: Double = 120,
    _ condition: @Sendable () -> Bool
) async -> Bool {
    await eventuallyPolling(polls: Int(seconds * 1_000), condition)
}
