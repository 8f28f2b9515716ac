/// Whether an action is executing and whether it is enabled: the storages of `isExecuting` and
/// `isEnabled`, which every run updates directly, with no derived property between them.
///
/// `isEnabled` is `condition && !isExecuting`, recomputed under its own lock from the current values of
/// both after each of them changes: whatever the interleaving of a run ending on one thread and the
/// condition changing on another, the last recomputation reads the last values, so `isEnabled` always
/// settles on the right value, and it notifies only when it changes. Locks are taken in one order only:
/// `isEnabled`'s, then `isExecuting`'s or the condition's; a start holds `isExecuting`'s while it reads the
/// condition.
@usableFromInline
final class ActionStatus: Sendable {
    @usableFromInline let executing: PropertyStorage<Bool>
    @usableFromInline let enabled: PropertyStorage<Bool>
    /// The `enabledIf` property the action was made with; `nil` for an action enabled whenever no run
    /// is in progress.
    @usableFromInline let condition: Property<Bool>?

    init(condition: Property<Bool>?) {
        self.condition = condition
        executing = PropertyStorage(false)
        enabled = PropertyStorage(condition?.value ?? true)
    }

    /// Follows the condition until the returned disposable is disposed (when the action is released);
    /// `nil` when there is no condition.
    func followCondition() -> (any Disposable)? {
        // The current value comes first, atomically with the attachment: a change made before it is not
        // missed.
        condition?.storage.observeCurrentAndChanges(valuesTo: { [self] _ in refreshEnabled() })
    }

    /// Marks a run started if none is in progress and `admit` accepts it; `admit` runs under the lock of
    /// `isExecuting`, so the check and the start are one atomic step.
    ///
    /// - Returns: What `admit` returned, or `nil` if a run is in progress or `admit` refused.
    @inlinable
    func start<Admitted>(_ admit: () -> Admitted?) -> Admitted? {
        var admitted: Admitted?
        executing.transition { isExecuting in
            guard !isExecuting, let made = admit() else { return false }
            admitted = made
            isExecuting = true
            return true
        }
        guard let admitted else { return nil }
        // A run in progress disables the action whatever the condition says: nothing to read.
        enabled.transition { isEnabled in
            guard isEnabled else { return false }
            isEnabled = false
            return true
        }
        return admitted
    }

    /// Marks the run in progress ended.
    @inlinable
    func finish() {
        executing.set(false)
        refreshEnabled()
    }

    /// Recomputes `isEnabled` from the current values of the condition and `isExecuting`.
    @inlinable
    func refreshEnabled() {
        enabled.transition { isEnabled in
            let now = (condition?.value ?? true) && !executing.value
            guard now != isEnabled else { return false }
            isEnabled = now
            return true
        }
    }
}
