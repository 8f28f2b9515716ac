/// The run an action has in flight, interrupted when the action is released.
///
/// An action runs at most one execution at a time, so one slot is enough: a run puts its interrupter here
/// before its work starts and takes it out when it ends, and the action's lifetime disposes the slot once,
/// which interrupts the run in flight, if any, and every run that would start later. A run thus costs no
/// registration of its own in the action's lifetime.
@usableFromInline
final class ActionRunSlot: Disposable {
    // Guarded by its own lock: the run in flight, and whether the action's lifetime has ended.
    @usableFromInline let state = LockedState<(run: (any Disposable)?, isDisposed: Bool)>((nil, false))

    @inlinable
    init() {}

    /// Holds `run` until `release()`; interrupts it at once if the action's lifetime has ended.
    @inlinable
    func hold(_ run: any Disposable) {
        let isDisposed = state.withLock { state -> Bool in
            guard !state.isDisposed else { return true }
            state.run = run
            return false
        }
        if isDisposed {
            run.dispose()
        }
    }

    /// Lets go of the run held: its work ended.
    ///
    /// Only the run in flight calls this, from its terminal event and before the action stops executing,
    /// so no later run can have been put here yet.
    @inlinable
    func release() {
        // Released after unlocking: the run's deinit may be user code.
        let released = state.withLock { state -> (any Disposable)? in
            defer { state.run = nil }
            return state.run
        }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    @usableFromInline
    func dispose() {
        let run = state.withLock { state -> (any Disposable)? in
            state.isDisposed = true
            defer { state.run = nil }
            return state.run
        }
        run?.dispose()
    }
}
