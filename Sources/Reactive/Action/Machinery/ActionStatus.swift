/// Whether an action is executing and whether it is enabled: the storages of `isExecuting` and
/// `isEnabled`, which every run updates directly, with no derived property between them.
///
/// `isEnabled` is `condition && !isExecuting`, recomputed after each of them changes: whatever the
/// interleaving of a run ending on one thread and the condition changing on another, the last
/// recomputation reads the last values, so `isEnabled` always settles on the right value, and it notifies
/// only when it changes. As when it was derived from `isExecuting`, its change is notified before
/// `isExecuting`'s: an observer of `isExecuting` already reads the `isEnabled` that goes with it.
///
/// Locks: user code may hold the condition's lock (inside its `modify`) and read `isExecuting` or
/// `isEnabled` there, so neither of their locks is ever held while the condition is read. A start reads
/// the condition under the action's own admission lock, which no user code ever holds, and stores
/// `isExecuting` under it too, so the check and the start are one step (`admission → condition`,
/// `admission → isExecuting`, and the user's `condition → isExecuting`: no cycle). A recomputation of
/// `isEnabled` reads the condition and `isExecuting` with no lock held and checks both again after
/// storing. An action with no condition has no admission lock: its start reads nothing user code can
/// hold, and checks and stores under `isExecuting`'s lock alone.
@usableFromInline
final class ActionStatus: Sendable {
    @usableFromInline let executing: PropertyStorage<Bool>
    @usableFromInline let enabled: PropertyStorage<Bool>
    /// The `enabledIf` property the action was made with; `nil` for an action enabled whenever no run
    /// is in progress.
    @usableFromInline let condition: Property<Bool>?
    /// Orders the starts and ends of the runs of an action with a condition; `nil` without one.
    @usableFromInline let admission: LockedState<Void>?

    init(condition: Property<Bool>?) {
        self.condition = condition
        executing = PropertyStorage(false)
        enabled = PropertyStorage(condition?.value ?? true)
        admission = condition == nil ? nil : LockedState()
    }

    /// Follows the condition until the returned disposable is disposed (when the action is released);
    /// `nil` when there is no condition.
    func followCondition() -> (any Disposable)? {
        // The current value comes first, atomically with the attachment: a change made before it is not
        // missed.
        condition?.observeCurrentAndChanges(Signal<Bool, Never>.Observer(value: { [self] _ in refreshEnabled() }))
    }

    /// Marks a run started if none is in progress and `admit` accepts it; the check and the start are
    /// one atomic step.
    ///
    /// `admit` reads the condition: with one, it runs under the admission lock before `isExecuting`'s is
    /// taken, never under it (see the type's comment); with none, it runs under `isExecuting`'s lock, and
    /// only when no run is in progress.
    ///
    /// - Returns: What `admit` returned, or `nil` if a run is in progress or `admit` refused.
    @inlinable
    func start<Admitted>(_ admit: () -> Admitted?) -> Admitted? {
        let started: (admitted: Admitted?, notify: SignalCore<Bool, Never>.PendingDrain?)
        if let admission {
            started = admission.withLock { _ in
                // Every start and end holds the admission lock: no run starts or ends between reading
                // the condition and checking `isExecuting`.
                guard let made = admit() else { return (nil, nil) }
                return markStarted { made }
            }
        } else {
            started = markStarted(admit)
        }
        let (admitted, notifyExecuting) = started
        guard let admitted else { return nil }
        // A run in progress disables the action whatever the condition says: nothing to read.
        enabled.transition { isEnabled in
            guard isEnabled else { return false }
            isEnabled = false
            return true
        }
        notifyExecuting?.run()
        return admitted
    }

    /// Marks the run in progress ended.
    @inlinable
    func finish() {
        let notifyExecuting =
            if let admission {
                admission.withLock { _ in stageExecuting(false) }
            } else {
                stageExecuting(false)
            }
        // This run's end stored `false`: no need to read it back before the first recomputation.
        refreshEnabled(isRunning: false)
        notifyExecuting?.run()
    }

    /// Stores `true` in `isExecuting` if no run is in progress and `admit` accepts the start, in one
    /// critical section of `isExecuting`'s lock, and stages its notification, which the caller runs with
    /// no lock held.
    ///
    /// - Returns: What `admit` returned, or `nil` if a run is in progress or `admit` refused; and the
    ///   staged notification, if any.
    @inlinable
    func markStarted<Admitted>(
        _ admit: () -> Admitted?
    ) -> (admitted: Admitted?, notify: SignalCore<Bool, Never>.PendingDrain?) {
        var admitted: Admitted?
        let (_, notify) = executing.core.stage {
            guard !executing.current, let made = admit() else { return nil }
            admitted = made
            executing.store(true)
            return .value(true)
        }
        return (admitted, notify)
    }

    /// Stores `isRunning` in `isExecuting` and stages its notification, which the caller runs with no
    /// lock held.
    @inlinable
    func stageExecuting(_ isRunning: Bool) -> SignalCore<Bool, Never>.PendingDrain? {
        executing.core.stage {
            executing.store(isRunning)
            return .value(isRunning)
        }.drain
    }

    /// Recomputes `isEnabled` from the current values of the condition and `isExecuting`.
    ///
    /// Both are read with no lock held, and read again after storing: if either changed meanwhile, this
    /// goes again. Each change runs its own recomputation after it, so whichever stores last has read the
    /// latest values. Holding `isEnabled`'s lock while reading the condition would close a cycle of
    /// locks with user code that reads `isEnabled` inside the condition's `modify`.
    ///
    /// - Parameter isRunning: The value of `isExecuting` the caller just stored, if it did.
    @inlinable
    func refreshEnabled(isRunning: Bool? = nil) {
        var inputs = (holds: condition?.value ?? true, isRunning: isRunning ?? executing.value)
        while true {
            let now = inputs.holds && !inputs.isRunning
            enabled.transition { isEnabled in
                guard now != isEnabled else { return false }
                isEnabled = now
                return true
            }
            let current = (holds: condition?.value ?? true, isRunning: executing.value)
            guard current != inputs else { return }
            inputs = current
        }
    }
}
