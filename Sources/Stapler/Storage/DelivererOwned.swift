import Reactive

#if STAPLER_INTERNAL_CHECKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
#endif

/// A value that only the thread delivering a paginator's publications uses, one use at a time: a
/// transformed list's transformer and its counters.
///
/// A paginator's delivery queue hands one thing at a time to its deliverer, on one thread at a time, so
/// what only the deliverer touches needs no lock, and a lock around it could not be held anyway: the
/// transform runs the app's closures. Under `STAPLER_INTERNAL_CHECKS` (debug builds and the fuzzers)
/// each use records its thread, and a use that starts while another is under way (on another thread, or
/// inside it) traps, naming both threads: that is what breaking the rule looks like.
@usableFromInline
final class DelivererOwned<Value>: @unchecked Sendable {
    // Guarded by the deliverer role: only the thread delivering the paginator's publications uses it, one
    // use at a time; `use(_:)` checks that under STAPLER_INTERNAL_CHECKS.
    @usableFromInline var value: Value
    #if STAPLER_INTERNAL_CHECKS
        /// The thread using the value now, if any.
        @usableFromInline let user = LockedState<pthread_t?>(nil)
    #endif

    @inlinable
    init(_ value: Value) {
        self.value = value
    }

    /// Whether uses are checked: under `STAPLER_INTERNAL_CHECKS`.
    static var checksUses: Bool {
        #if STAPLER_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }

    /// Runs `body` on the value; only the deliverer calls it, one call at a time.
    @inlinable
    func use<Result>(_ body: (inout Value) -> Result) -> Result {
        #if STAPLER_INTERNAL_CHECKS
            let thread = pthread_self()
            user.withLock { user in
                if let other = user {
                    fatalError(
                        "DelivererOwned: used on thread \(thread) while thread \(other) uses it: only the paginator's "
                            + "deliverer may use it, one delivery at a time")
                }
                user = thread
            }
            defer { user.withLock { $0 = nil } }
        #endif
        return body(&value)
    }
}
