#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// State guarded by a `pthread_mutex_t`, both living in one heap allocation.
///
/// This is the only lock type in the package. Thread Sanitizer understands pthread mutexes (it
/// reports false races through `Synchronization.Mutex` on Linux), and keeping the mutex on the heap
/// avoids the Swift access race of passing a stored lock with `&`.
///
/// In debug builds the mutex is error-checking: a thread that locks it twice traps at once with a
/// stack instead of hanging, which turns any accidental reentrancy into a test failure.
///
/// - Important: Never call user code inside `withLock`. Take a snapshot, unlock, then call out.
@usableFromInline
package struct LockedState<State>: @unchecked Sendable {
    // Guarded by the mutex stored in `storage`'s elements.
    @usableFromInline let storage: LockStorage<State>

    /// Creates the lock with its initial state.
    @inlinable
    package init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

extension LockedState where State == Void {
    /// Creates a lock that guards no state of its own.
    @inlinable
    package init() {
        self.init(())
    }
}

/// The header of ``LockStorage``: the state, then one byte that gives it an address of its own.
///
/// A state of no size (a lock that guards `Void`) would otherwise sit at the mutex's address, and
/// Thread Sanitizer would see the access to the state inside the lock race with the atomic accesses
/// `pthread_mutex_lock` makes to the mutex from a thread still waiting for it.
@usableFromInline
package struct LockHeader<State> {
    @usableFromInline var state: State
    @usableFromInline let separator: UInt8 = 0

    @inlinable
    init(_ state: State) {
        self.state = state
    }
}

/// The heap storage of ``LockedState``: the state in the header, one mutex as the element.
@usableFromInline
package final class LockStorage<State>: ManagedBuffer<LockHeader<State>, pthread_mutex_t> {
    @inlinable
    static func make(_ initial: State) -> LockStorage<State> {
        let buffer = Self.create(minimumCapacity: 1) { _ in LockHeader(initial) }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            #if DEBUG
                pthread_mutexattr_settype(&attributes, .init(PTHREAD_MUTEX_ERRORCHECK))
            #endif
            let result = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        }
        return storage
    }

    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { header, mutex in
            let locked = pthread_mutex_lock(mutex)
            assert(locked == 0, "pthread_mutex_lock failed with \(locked): a lock was taken twice on one thread")
            #if DEBUG
                LockCount.increment()
            #endif
            defer {
                let unlocked = pthread_mutex_unlock(mutex)
                assert(unlocked == 0, "pthread_mutex_unlock failed with \(unlocked)")
            }
            return try body(&header.pointee.state)
        }
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
        }
    }
}

#if DEBUG
    /// How many times the calling thread has taken a ``LockedState``'s lock, in debug builds: what a test
    /// reads to count the lock round trips of one call, from the call to the observer it notifies.
    ///
    /// The count is the thread's own (a thread-specific value), so tests that run beside it on other threads
    /// do not change it.
    @usableFromInline
    package enum LockCount {
        /// The key of each thread's count.
        @usableFromInline static let key: pthread_key_t = {
            var key = pthread_key_t()
            let result = pthread_key_create(&key, nil)
            precondition(result == 0, "pthread_key_create failed with \(result)")
            return key
        }()

        /// The calling thread's count.
        @inlinable
        package static var current: Int {
            Int(bitPattern: pthread_getspecific(key))
        }

        /// How many locks the internal checks add to each delivery to a derived signal's remembered only
        /// observer (`STAPLER_INTERNAL_CHECKS` checks the observer list under the lock): a count of the
        /// libraries' own locks leaves them out.
        package static var checkLocksPerDerivedDelivery: Int {
            #if STAPLER_INTERNAL_CHECKS
                1
            #else
                0
            #endif
        }

        /// Counts one more lock taken by the calling thread.
        @inlinable
        static func increment() {
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: current &+ 1))
        }
    }
#endif
