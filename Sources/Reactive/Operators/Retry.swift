extension SignalProducer {
    /// A producer whose every run starts this producer again each time its run fails, at most `count`
    /// times, and fails with the last error once the retries are used up.
    ///
    /// Values of every attempt, including the ones that fail, are forwarded; completion or interruption of
    /// an attempt ends the run. A run makes at most `count + 1` attempts. Attempts that fail at once are
    /// restarted in a loop, not recursively, so a large `count` does not grow the stack. Disposing the run
    /// interrupts the current attempt and starts no other.
    ///
    /// ```swift
    /// api.load().retry(upTo: 2)  // up to three requests
    /// ```
    ///
    /// - Parameter count: How many times a failed attempt may be restarted. Traps if it is negative.
    /// - Returns: The retrying producer.
    public func retry(upTo count: Int) -> SignalProducer<Value, Error> {
        guard count >= 0 else { fatalError("retry(upTo:) needs a count of at least 0, got \(count)") }
        guard count > 0 else { return self }
        return SignalProducer { observer, lifetime in
            RetryRun(producer: self, retries: count, observer: observer, lifetime: lifetime).requestAttempt()
        }
    }
}

/// One run of `retry(upTo:)`: starts attempts until one does not fail or the retries are used up.
final class RetryRun<Value: Sendable, Error: Swift.Error>: Sendable {
    private let producer: SignalProducer<Value, Error>
    private let observer: Signal<Value, Error>.Observer
    private let lifetime: Lifetime
    /// Holds the current attempt's run; replacing it disposes the finished one.
    private let current = SerialDisposable()
    // Guarded by its lock.
    private let state: LockedState<State>

    private struct State {
        var retriesLeft: Int
        /// Whether a thread is in the attempt loop.
        var isStarting = false
        /// Whether an attempt failed while the loop was starting one, so the loop must start another.
        var isAttemptRequested = false
    }

    init(
        producer: SignalProducer<Value, Error>, retries: Int, observer: Signal<Value, Error>.Observer,
        lifetime: Lifetime
    ) {
        self.producer = producer
        self.observer = observer
        self.lifetime = lifetime
        state = LockedState(State(retriesLeft: retries))
        lifetime += current
    }

    /// Starts an attempt, or asks the thread already in the attempt loop to start one after the current
    /// start returns.
    func requestAttempt() {
        let startsHere = state.withLock { state -> Bool in
            guard !state.isStarting else {
                state.isAttemptRequested = true
                return false
            }
            state.isStarting = true
            return true
        }
        guard startsHere else { return }
        repeat {
            let slot = SerialDisposable()
            current.inner = slot
            producer.start(Signal<Value, Error>.Observer({ [self] event in receive(event) }), in: slot)
        } while state.withLock { state -> Bool in
            guard state.isAttemptRequested else {
                state.isStarting = false
                return false
            }
            state.isAttemptRequested = false
            return true
        }
    }

    private func receive(_ event: Signal<Value, Error>.Event) {
        guard case .failed(let error) = event else {
            observer.send(event)
            return
        }
        let retries = state.withLock { state -> Bool in
            guard state.retriesLeft > 0 else { return false }
            state.retriesLeft -= 1
            return true
        }
        if retries {
            requestAttempt()
        } else {
            observer.send(error: error)
        }
    }
}
