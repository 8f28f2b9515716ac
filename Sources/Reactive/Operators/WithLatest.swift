extension Signal {
    /// A signal that pairs each value of this signal with the latest value of `samplee`.
    ///
    /// A value that arrives before `samplee` has sent anything is dropped. `samplee`'s completion or
    /// interruption does not end the result (its last value keeps being used); this signal's terminal
    /// events pass through. The result stops observing `samplee` when it terminates.
    ///
    /// ```swift
    /// taps.withLatest(from: query)  // each tap with the query at the moment of the tap
    /// ```
    ///
    /// - Parameter samplee: The signal whose latest value is attached.
    /// - Returns: The signal of pairs.
    public func withLatest<Other: Sendable>(from samplee: Signal<Other, Never>) -> Signal<(Value, Other), Error> {
        Signal<(Value, Other), Error> { output, lifetime in
            let latest = LockedState<Other?>(nil)
            lifetime += samplee.observeValues { value in latest.withLock { $0 = value } }
            lifetime += observe(Self.pairing(output, with: latest))
        }
    }

    /// A signal that pairs each value of this signal with the latest value of a run of `samplee`, started
    /// when the operator is applied; see `withLatest(from:)-(Signal<Other,Never>)`.
    ///
    /// - Parameter samplee: Started once; its run is interrupted when the result terminates.
    /// - Returns: The signal of pairs.
    public func withLatest<Other: Sendable>(
        from samplee: SignalProducer<Other, Never>
    ) -> Signal<(Value, Other), Error> {
        Signal<(Value, Other), Error> { output, lifetime in
            let latest = LockedState<Other?>(nil)
            samplee.start(
                Signal<Other, Never>.Observer(value: { value in latest.withLock { $0 = value } }), during: lifetime)
            lifetime += observe(Self.pairing(output, with: latest))
        }
    }

    /// An observer of this signal that sends each value paired with `latest`, if it holds one.
    private static func pairing<Other>(
        _ output: Signal<(Value, Other), Error>.Observer,
        with latest: LockedState<Other?>
    ) -> Observer {
        Observer({ event in
            switch event {
            case .value(let value):
                if let other = latest.withLock({ $0 }) { output.send(value: (value, other)) }
            case .failed(let error): output.send(error: error)
            case .completed: output.sendCompleted()
            case .interrupted: output.sendInterrupted()
            }
        })
    }
}

extension SignalProducer {
    /// A producer whose runs pair each value with the latest value of `samplee`; see
    /// `Signal.withLatest(from:)-(Signal<Other,Never>)`.
    ///
    /// - Parameter samplee: Observed for the duration of each run.
    /// - Returns: The producer of pairs.
    public func withLatest<Other: Sendable>(
        from samplee: Signal<Other, Never>
    ) -> SignalProducer<(Value, Other), Error> {
        lift { $0.withLatest(from: samplee) }
    }

    /// A producer whose runs start `samplee` and pair each value with the latest value of that run; see
    /// `Signal.withLatest(from:)-(SignalProducer<Other,Never>)`.
    ///
    /// - Parameter samplee: Started once per run, before this producer; interrupted when the run ends.
    /// - Returns: The producer of pairs.
    public func withLatest<Other: Sendable>(
        from samplee: SignalProducer<Other, Never>
    ) -> SignalProducer<(Value, Other), Error> {
        lift { $0.withLatest(from: samplee) }
    }
}
