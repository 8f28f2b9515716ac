/// An action handed to a Dispatch queue, which disposing cancels.
///
/// The queue holds the box until the action's deadline; cancelling drops the action (and everything it
/// captured) at once, so a cancelled one-hour timeout frees its resources now, not in an hour.
final class ScheduledAction: Disposable {
    // Guarded by its own lock: the action while it may still run, and what else to cancel.
    private let state: LockedState<State>

    private struct State {
        var action: (@Sendable () -> Void)?
        var onCancel: (@Sendable () -> Void)?
    }

    init(_ action: @escaping @Sendable () -> Void) {
        state = LockedState(State(action: action))
    }

    /// Whether the action was cancelled or, for a one-shot action, has started.
    var isDisposed: Bool { state.withLock { $0.action == nil } }

    /// Takes the action to run it once: a later `dispose()` no longer affects it.
    func take() -> (@Sendable () -> Void)? {
        state.withLock { state in
            defer {
                state.action = nil
                state.onCancel = nil
            }
            return state.action
        }
    }

    /// The action for one tick of a repeating schedule, or `nil` once cancelled.
    func current() -> (@Sendable () -> Void)? {
        state.withLock { $0.action }
    }

    /// Registers `cancel` to run when the action is cancelled (at once if it already was).
    func onCancel(_ cancel: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state -> Bool in
            guard state.action != nil else { return true }
            state.onCancel = cancel
            return false
        }
        if cancelled { cancel() }
    }

    /// Cancels the action if it has not started; idempotent.
    func dispose() {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            defer {
                state.action = nil
                state.onCancel = nil
            }
            return state.onCancel
        }
        cancel?()
    }
}
