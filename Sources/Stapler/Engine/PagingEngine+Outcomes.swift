import Reactive

extension PagingEngine {
    /// Starts a load at `edge` if it can start; `waiter` hears how it ends.
    ///
    /// At the bottom, `retryingFailedPage` requests a failed next page again and `afterFailedRefresh`
    /// false starts nothing while a refresh's failure stands (the facade's rule, see
    /// ``PagingMachine/reasonNotToLoadNext(retryingFailedPage:afterFailedRefresh:)``). The machine
    /// decides under the lock, and `waiter` is registered in the same transition that starts the load.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` with the reason (then `waiter`
    ///   is never called).
    @inlinable
    func loadEdge(
        _ edge: PageDirection, retryingFailedPage: Bool = false, afterFailedRefresh: Bool = true,
        waiter: EdgeWaiter?
    ) -> LoadOutcome<Failure> {
        var outcome = LoadOutcome<Failure>.started
        send {
            guard edge == .append else {
                if let reason = $0.reasonNotToLoad(edge) {
                    outcome = .ignored(reason)
                    return Machine.Effects()
                }
                return $0.receiveLoadPrevious()
            }
            if let reason = $0.reasonNotToLoadNext(
                retryingFailedPage: retryingFailedPage, afterFailedRefresh: afterFailedRefresh)
            {
                outcome = .ignored(reason)
                return Machine.Effects()
            }
            return $0.receiveLoadNext(retryingFailedPage: retryingFailedPage, afterFailedRefresh: afterFailedRefresh)
        } registering: { state in
            guard case .started = outcome, let waiter, let ticket = state.machine[phase: edge].load?.ticket else {
                return
            }
            state.edgeWaiters[ticket, default: []].append(waiter)
        }
        return outcome
    }

    /// Starts a new generation in `mode`; `waiter` hears how its first page (or chain) ends.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` when the mode started nothing
    ///   (a refresh around a row outside the list; then `waiter` is never called).
    @inlinable
    func startRefresh(_ mode: RefreshMode<Key>, query: Query?, waiter: Waiter?) -> LoadOutcome<Failure> {
        var started = false
        let blanking = blanks(for: query)
        let visit = self.visit(for: query)
        send { machine in
            let effects = machine.receiveRefresh(mode, query: query, blanking: blanking, visit: visit)
            started = effects.startsLoad
            return effects
        } registering: { state in
            guard started, let waiter else { return }
            state.waiters[state.machine.snapshot.generation, default: []].append(waiter)
        }
        return started ? .started : .ignored(.nothingToDo)
    }

    /// Requests again what failed; `waiter` hears how the loads it started end, combined.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` when nothing failed.
    @inlinable
    func retry(waiter: EdgeWaiter?) -> LoadOutcome<Failure> {
        var started: [(PageDirection, UInt64)] = []
        var generation: UInt64?
        send { machine in
            let before = (
                machine[phase: .refresh].load?.ticket, machine[phase: .prepend].load?.ticket,
                machine[phase: .append].load?.ticket
            )
            let effects = machine.receiveRetry()
            if let load = machine[phase: .refresh].load, load.ticket != before.0 {
                generation = machine.snapshot.generation
            }
            if let load = machine[phase: .prepend].load, load.ticket != before.1 {
                started.append((.prepend, load.ticket))
            }
            if let load = machine[phase: .append].load, load.ticket != before.2 {
                started.append((.append, load.ticket))
            }
            return effects
        } registering: { state in
            guard let waiter else { return }
            if let generation {
                state.waiters[generation, default: []].append { waiter(LoadOutcome($0)) }
            } else if !started.isEmpty {
                let combined = CombinedOutcome<Failure>(count: started.count, report: waiter)
                for (_, ticket) in started { state.edgeWaiters[ticket, default: []].append(combined.settle) }
            }
        }
        return generation != nil || !started.isEmpty ? .started : .ignored(.nothingToDo)
    }

    /// Stages the outcome of an edge load that ended for the calls that await it; under the state lock.
    ///
    /// A failure that an automatic retry follows (`retrying`) settles nothing: its callers wait for
    /// the retry, whose load takes them over when it starts.
    @inlinable
    func settle(
        _ ended: (ticket: UInt64, end: LoadEnd)?, of direction: PageDirection, retrying: Bool, in state: inout State,
        drain: inout SignalDrain?
    ) {
        guard let ended, let waiters = state.edgeWaiters.removeValue(forKey: ended.ticket) else { return }
        if retrying, ended.end == .failed {
            state.retryWaiters[direction, default: []].append(contentsOf: waiters)
            return
        }
        let outcome = outcome(of: ended.end, in: direction, state)
        for waiter in waiters { stage(.outcome { waiter(outcome) }, in: &state, drain: &drain) }
    }

    /// The outcome of a load of `direction` that ended as `end`.
    @inlinable
    func outcome(of end: LoadEnd, in direction: PageDirection, _ state: State) -> LoadOutcome<Failure> {
        switch end {
        case .loaded: .loaded
        case .failed: state.machine[phase: direction].error.map { .failed($0) } ?? .loaded
        case .superseded: .superseded
        case .cancelled: .cancelled
        }
    }

    /// Runs `begin` with a callback that resolves the awaiting call; returns the first outcome: the
    /// callback's, `begin`'s own immediate one, or ``LoadOutcome/cancelled`` when the awaiting task is
    /// cancelled (the load goes on: others may share it).
    ///
    /// The callback's outcome resumes the task only after the drain or hop that reported it has ended
    /// (``resumeAfterDelivery(_:_:)``): when the call returns, what it reports is delivered, and the
    /// caller's next call delivers its own publication before returning (unless another thread is
    /// delivering at that moment).
    @inlinable
    func awaitOutcome(
        _ begin: (@escaping EdgeWaiter) -> LoadOutcome<Failure>
    ) async -> LoadOutcome<Failure> {
        let box = OutcomeBox<Failure>()
        // The state, not the engine: the callback waits in the engine's state until its load ends.
        let state = state
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                box.wait(continuation)
                let immediate = begin { outcome in Self.resumeAfterDelivery(state) { box.resolve(outcome) } }
                if case .ignored = immediate { box.resolve(immediate) }
            }
        } onCancel: {
            box.resolve(.cancelled)
        }
    }
}

extension LoadOutcome {
    /// The outcome of a first-page load.
    @inlinable
    init(_ outcome: FirstPageOutcome<Failure>) {
        switch outcome {
        case .loaded: self = .loaded
        case .failed(let error): self = .failed(error)
        case .superseded: self = .superseded
        case .cancelled: self = .cancelled
        }
    }
}

/// The one outcome of an awaited call: the first `resolve` wins, whether it comes before or after the
/// caller starts waiting.
@usableFromInline
final class OutcomeBox<Failure: Error>: Sendable {
    // Guarded by its own lock.
    @usableFromInline let state = LockedState<
        (CheckedContinuation<LoadOutcome<Failure>, Never>?, LoadOutcome<Failure>?, Bool)
    >(
        (nil, nil, false))

    @inlinable
    init() {}

    /// Waits with `continuation`; resumes it at once if an outcome is already in.
    @inlinable
    func wait(_ continuation: CheckedContinuation<LoadOutcome<Failure>, Never>) {
        let ready = state.withLock { state -> LoadOutcome<Failure>? in
            guard let outcome = state.1 else {
                state.0 = continuation
                return nil
            }
            state.2 = true
            return outcome
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Resolves the call with `outcome` unless it was resolved already.
    @inlinable
    func resolve(_ outcome: LoadOutcome<Failure>) {
        let continuation = state.withLock { state -> CheckedContinuation<LoadOutcome<Failure>, Never>? in
            guard state.1 == nil, !state.2 else { return nil }
            state.1 = outcome
            guard let continuation = state.0 else { return nil }
            state.0 = nil
            state.2 = true
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}

/// Combines the outcomes of several loads into one: a failure if any failed, else superseded or
/// cancelled if any was, else loaded.
@usableFromInline
final class CombinedOutcome<Failure: Error>: Sendable {
    // Guarded by its own lock: the outcomes still awaited, and the worst so far.
    @usableFromInline let state: LockedState<(left: Int, worst: LoadOutcome<Failure>)>
    @usableFromInline let report: @Sendable (LoadOutcome<Failure>) -> Void

    @inlinable
    init(count: Int, report: @escaping @Sendable (LoadOutcome<Failure>) -> Void) {
        state = LockedState((count, .loaded))
        self.report = report
    }

    /// Takes one load's outcome; the last one reports the combination.
    @inlinable
    @Sendable
    func settle(_ outcome: LoadOutcome<Failure>) {
        let done = state.withLock { state -> LoadOutcome<Failure>? in
            switch (state.worst, outcome) {
            case (.failed, _): break
            case (_, .failed), (.loaded, _): state.worst = outcome
            default: break
            }
            state.left -= 1
            return state.left == 0 ? state.worst : nil
        }
        if let done { report(done) }
    }
}
