#if DEBUG
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

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
