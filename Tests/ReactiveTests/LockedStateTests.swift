import Dispatch
import Testing

@testable import Reactive

/// A counter the lock under test guards from outside: it holds no lock of its own.
private final class UnguardedCounter: @unchecked Sendable {
    // Guarded by the `LockedState(())` of the test that uses it.
    var value = 0
}

@Suite("LockedState")
struct LockedStateTests {
    @Test("a lock that guards no state of its own excludes 4 threads from each other, and TSan sees it")
    func voidLockExcludesContendingThreads() {
        // A state of no size must not share its address with the mutex: under Thread Sanitizer the
        // access to the state inside the lock would race with a waiting thread's lock call.
        let lock = LockedState(())
        let counter = UnguardedCounter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20_000 {
                lock.withLock { _ in counter.value += 1 }
            }
        }
        #expect(lock.withLock { _ in counter.value } == 80_000)
    }

    @Test("the guarded state sees every update of 4 contending threads")
    func guardedStateSeesEveryUpdate() {
        let lock = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20_000 {
                lock.withLock { $0 += 1 }
            }
        }
        #expect(lock.withLock { $0 } == 80_000)
    }
}
