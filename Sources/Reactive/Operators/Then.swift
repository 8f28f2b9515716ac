extension Signal {
    /// A signal that waits for this signal to complete, then starts `replacement` and forwards that
    /// run's events.
    ///
    /// This signal's values are dropped. A failure or interruption of this signal passes through at once
    /// and `replacement` is never started. The replacement run is interrupted if the result tears down,
    /// and never starts once the result has terminated or torn down.
    ///
    /// - Parameter replacement: Started once, on the thread that delivers this signal's completion.
    /// - Returns: The signal of the replacement's events.
    public func then<NewValue: Sendable>(
        _ replacement: SignalProducer<NewValue, Error>
    ) -> Signal<NewValue, Error> {
        Signal<NewValue, Error> { output, lifetime in
            lifetime += observe { event in
                switch event {
                case .value: break
                case .failed(let error): output.send(error: error)
                case .completed: replacement.start(output, during: lifetime)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs run this producer to completion, dropping its values, then run
    /// `replacement` and forward its events; see `Signal.then(_:)`.
    ///
    /// - Parameter replacement: Started after each run of this producer completes.
    /// - Returns: The producer of the replacement's events.
    public func then<NewValue: Sendable>(
        _ replacement: SignalProducer<NewValue, Error>
    ) -> SignalProducer<NewValue, Error> {
        lift { $0.then(replacement) }
    }

    /// A producer whose runs forward this producer's events, and when its run completes, start `next`
    /// and forward that run's events.
    ///
    /// A failure or interruption of this producer's run ends the run and `next` never starts. Disposing
    /// the run interrupts whichever of the two is running; once the run is disposed, `next` never starts,
    /// even if the first run completes afterwards (from inside its own start, for instance).
    ///
    /// - Parameter next: Started after each run of this producer completes.
    /// - Returns: The concatenated producer.
    public func concat(_ next: SignalProducer<Value, Error>) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            start(
                Signal<Value, Error>.Observer({ event in
                    switch event {
                    case .completed: next.start(observer, during: lifetime)
                    default: observer.send(event)
                    }
                }),
                during: lifetime
            )
        }
    }

    /// A producer whose runs send `value` first, then forward this producer's events.
    ///
    /// A run disposed on receiving `value` (as `take(first: 1)` does) never starts this producer.
    ///
    /// - Parameter value: Sent at the start of every run, before this producer's work starts.
    /// - Returns: The prefixed producer.
    public func prefix(value: Value) -> SignalProducer<Value, Error> {
        SignalProducer(value: value).concat(self)
    }
}
