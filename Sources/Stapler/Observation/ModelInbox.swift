import Reactive

/// What a main-actor model has been delivered and not applied yet: the newest value, every rows change
/// since its last turn (in order), and whether a hop to the main actor is scheduled.
///
/// The delivering thread posts; the main actor takes everything at once, so a model skips to the newest
/// value and composes the changes it skipped into one ``ModelUpdate``.
final class ModelInbox<Value: Sendable>: Sendable {
    // Guarded by its own lock.
    private let state = LockedState<(posted: Value?, steps: [RowsStep], scheduled: Bool)>((nil, [], false))

    /// Keeps `make(posted)` as the newest value and appends `step`.
    ///
    /// `posted` is the newest value not yet taken, if any. `make` runs under the lock: it must only build
    /// the value. Returns whether the caller must schedule a hop to take it.
    func post(_ step: RowsStep?, _ make: (Value?) -> Value) -> Bool {
        state.withLock { state in
            state.posted = make(state.posted)
            if let step { state.steps.append(step) }
            defer { state.scheduled = true }
            return !state.scheduled
        }
    }

    /// Takes the newest value and the changes since the last take; the next post schedules a new hop.
    func take() -> (value: Value, steps: [RowsStep])? {
        state.withLock { state in
            defer {
                state.posted = nil
                state.steps = []
                state.scheduled = false
            }
            return state.posted.map { ($0, state.steps) }
        }
    }
}
