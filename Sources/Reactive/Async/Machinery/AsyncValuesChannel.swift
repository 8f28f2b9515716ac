/// The shared state of one ``AsyncValues`` iterator: the observer that feeds its buffer and the
/// consumer's side that reads it.
///
/// The source's observer and the consumer's `next()` meet under one lock, in
/// `AsyncValuesStateMachine`; continuations are resumed and runs disposed after unlocking.
final class AsyncValuesChannel<Value: Sendable, Error: Swift.Error>: Sendable {
    typealias StateMachine = AsyncValuesStateMachine<Value, Error>

    // Guarded by its own lock.
    private let state: LockedState<StateMachine>

    init(policy: AsyncBufferingPolicy) {
        state = LockedState(StateMachine(policy: policy))
    }

    /// The observer to attach to the source.
    var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer({ [self] event in
            perform(state.withLock { $0.receive(event) })
        })
    }

    /// Keeps `run` to dispose when the consumer goes away; disposes it at once if it already has.
    func attach(_ run: any Disposable) {
        state.withLock { $0.attach(run) }?.dispose()
    }

    /// Ends the sequence and disposes the run; a waiting consumer gets the end of the sequence.
    func cancel() {
        perform(state.withLock { $0.cancel() })
    }

    /// The next value, or `nil` at the end; throws the source's error once, after the values before it.
    func next(isolation actor: isolated (any Actor)?) async throws(Error) -> Value? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        if let result = state.withLock({ $0.next() }) {
            return try result.get()
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (consumer: StateMachine.Consumer) in
                if let result = state.withLock({ $0.suspend(consumer) }) {
                    consumer.resume(returning: result)
                }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    private func perform(_ effect: StateMachine.Effect?) {
        guard let effect else { return }
        if let (consumer, result) = effect.resume {
            consumer.resume(returning: result)
        }
        effect.dispose?.dispose()
        _ = effect.release
    }
}
