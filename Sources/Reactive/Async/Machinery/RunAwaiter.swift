/// Awaits the outcome of one run of a producer, folding its events into a result.
///
/// The run's events, the awaiting task's cancellation and its continuation meet under one lock; the
/// continuation is resumed and the run disposed after unlocking. The outcome is decided once: by the
/// fold (which may decide on a value, and the run is then disposed), or by cancellation.
final class RunAwaiter<Value: Sendable, Error: Swift.Error, Partial, Output: Sendable>: Sendable {
    typealias Outcome = Result<Output, AwaitError<Error>>
    typealias Consumer = UnsafeContinuation<Outcome, Never>

    /// Folds one event into the partial result; returns the outcome once it is decided.
    typealias Fold = @Sendable (_ partial: inout Partial, _ event: Signal<Value, Error>.Event) -> Outcome?

    private struct State {
        var partial: Partial
        var outcome: Outcome?
        var consumer: Consumer?
        var run: (any Disposable)?
    }

    // Guarded by its own lock.
    private let state: LockedState<State>
    private let fold: Fold

    init(initial: Partial, fold: @escaping Fold) {
        state = LockedState(State(partial: initial))
        self.fold = fold
    }

    /// Starts a run of `producer` and waits for the outcome.
    ///
    /// Cancelling the awaiting task decides the outcome `.cancelled` and disposes the run; a task
    /// cancelled before the call starts no run.
    func outcome(of producer: SignalProducer<Value, Error>) async -> Outcome {
        await withTaskCancellationHandler {
            start(producer)
            return await withUnsafeContinuation { (consumer: Consumer) in
                let ready = state.withLock { state -> Outcome? in
                    guard let outcome = state.outcome else {
                        state.consumer = consumer
                        return nil
                    }
                    return outcome
                }
                if let ready { consumer.resume(returning: ready) }
            }
        } onCancel: {
            decide(.failure(.cancelled), disposing: true)
        }
    }

    private func start(_ producer: SignalProducer<Value, Error>) {
        guard state.withLock({ $0.outcome == nil }) else { return }
        // The interrupter is kept before the work starts, so an outcome decided during a synchronous
        // run (`first()` of an endless producer) stops that run.
        producer.startWithSignal { signal, interrupter in
            let kept = state.withLock { state -> Bool in
                guard state.outcome == nil else { return false }
                state.run = interrupter
                return true
            }
            guard kept else {
                interrupter.dispose()
                return
            }
            signal.observe(
                Signal<Value, Error>.Observer({ [self] event in
                    receive(event)
                }))
        }
    }

    private func receive(_ event: Signal<Value, Error>.Event) {
        let decided = state.withLock { state -> Outcome? in
            guard state.outcome == nil else { return nil }
            return fold(&state.partial, event)
        }
        if let decided {
            decide(decided, disposing: !event.isTerminating)
        }
    }

    /// Settles the outcome if it is still open: resumes the consumer, and disposes the run (or only
    /// releases it, for a run that has ended).
    private func decide(_ outcome: Outcome, disposing: Bool) {
        let taken = state.withLock { state -> (consumer: Consumer?, run: (any Disposable)?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { (state.consumer, state.run) = (nil, nil) }
            return (state.consumer, state.run)
        }
        guard let taken else { return }
        taken.consumer?.resume(returning: outcome)
        if disposing { taken.run?.dispose() }
    }
}
