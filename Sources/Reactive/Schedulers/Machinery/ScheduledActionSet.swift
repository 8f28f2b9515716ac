/// The actions an operator has scheduled and not yet seen run, so that ending the operator cancels them.
///
/// Cancelling releases every pending action (and what it captured) and removes it from the scheduler's
/// queue, so a disposed `observe(on:)` leaves no hop behind on a ``TestScheduler`` and frees its events.
/// An action that starts after ``cancelAll()`` has returned does nothing.
final class ScheduledActionSet: Sendable {
    // Guarded by its own lock: the pending actions' cancellation handles, by token.
    private let state = LockedState(State())

    private struct State {
        var nextToken: UInt64 = 0
        /// A slot exists from scheduling until the action starts or is cancelled; it holds the
        /// scheduler's disposable once `schedule` has returned it.
        var slots: [UInt64: Slot] = [:]
        var isCancelled = false
    }

    private struct Slot {
        var disposable: (any Disposable)?
    }

    /// Schedules `action` through `schedule`, unless the set has been cancelled.
    ///
    /// - Parameters:
    ///   - schedule: Hands the wrapped action to a scheduler and returns its disposable. It may run the
    ///     action before it returns (an immediate scheduler).
    ///   - action: The work; it runs at most once, and not once ``cancelAll()`` has returned.
    func schedule(
        _ schedule: (_ action: @escaping @Sendable () -> Void) -> (any Disposable)?,
        _ action: @escaping @Sendable () -> Void
    ) {
        let token = state.withLock { state -> UInt64? in
            guard !state.isCancelled else { return nil }
            let token = state.nextToken
            state.nextToken &+= 1
            state.slots[token] = Slot()
            return token
        }
        guard let token else { return }
        let disposable = schedule { [weak self] in
            guard let self, self.claim(token) else { return }
            action()
        }
        guard let disposable else { return }
        let kept = state.withLock { state -> Bool in
            guard state.slots[token] != nil else { return false }
            state.slots[token]?.disposable = disposable
            return true
        }
        if !kept {
            // The action has started (disposing is then a no-op) or the set was cancelled meanwhile.
            disposable.dispose()
        }
    }

    /// Cancels every pending action; later calls to `schedule` do nothing.
    func cancelAll() {
        let slots = state.withLock { state -> [UInt64: Slot] in
            state.isCancelled = true
            defer { state.slots = [:] }
            return state.slots
        }
        for slot in slots.values {
            slot.disposable?.dispose()
        }
    }

    /// Marks the action `token` as started; `false` if it was cancelled.
    private func claim(_ token: UInt64) -> Bool {
        state.withLock { $0.slots.removeValue(forKey: token) != nil }
    }
}
