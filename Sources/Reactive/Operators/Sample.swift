extension Signal {
    /// A signal that sends the latest value of this signal, paired with the sampler's value, each time
    /// `sampler` sends a value.
    ///
    /// Nothing is sent for a sampler value that arrives before this signal's first value; the same
    /// latest value may be sent several times. The result completes once both signals have completed,
    /// fails when this signal fails, and is interrupted when either is interrupted. It stops observing
    /// both when it terminates.
    ///
    /// ```swift
    /// positions.sample(with: ticks)  // the position at each tick, with the tick
    /// ```
    ///
    /// - Parameter sampler: Its values trigger the sends.
    /// - Returns: The signal of samples.
    public func sample<Sample: Sendable>(with sampler: Signal<Sample, Never>) -> Signal<(Value, Sample), Error> {
        Signal<(Value, Sample), Error> { output, lifetime in
            let state = LockedState(SampleState<Value>())
            lifetime += observe { event in
                switch event {
                case .value(let value): state.withLock { $0.latest = value }
                case .failed(let error): output.send(error: error)
                case .completed:
                    if state.withLock({ $0.complete(source: true) }) { output.sendCompleted() }
                case .interrupted: output.sendInterrupted()
                }
            }
            lifetime += sampler.observe { event in
                switch event {
                case .value(let sample):
                    if let latest = state.withLock({ $0.latest }) { output.send(value: (latest, sample)) }
                case .completed:
                    if state.withLock({ $0.complete(source: false) }) { output.sendCompleted() }
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// A signal that sends the latest value of this signal each time `sampler` sends; see
    /// `sample(with:)`.
    ///
    /// - Parameter sampler: Its values trigger the sends.
    /// - Returns: The signal of samples.
    public func sample(on sampler: Signal<Void, Never>) -> Signal<Value, Error> {
        sample(with: sampler).map { value, _ in value }
    }
}

/// What `sample(with:)` remembers: the latest value, and which inputs have completed.
private struct SampleState<Value> {
    var latest: Value?
    var isSourceCompleted = false
    var isSamplerCompleted = false

    /// Records the completion of one input; returns whether both have now completed.
    mutating func complete(source: Bool) -> Bool {
        if source { isSourceCompleted = true } else { isSamplerCompleted = true }
        return isSourceCompleted && isSamplerCompleted
    }
}

extension SignalProducer {
    /// A producer whose runs send their latest value, paired with the sampler's value, each time `sampler`
    /// sends; see `Signal.sample(with:)`.
    ///
    /// - Parameter sampler: Observed for the duration of each run.
    /// - Returns: The producer of samples.
    public func sample<Sample: Sendable>(
        with sampler: Signal<Sample, Never>
    ) -> SignalProducer<(Value, Sample), Error> {
        lift { $0.sample(with: sampler) }
    }

    /// A producer whose runs start `sampler` and send their latest value, paired with the sampler's value,
    /// each time it sends; see `Signal.sample(with:)`.
    ///
    /// - Parameter sampler: Started once per run, after this producer; interrupted when the run ends.
    /// - Returns: The producer of samples.
    public func sample<Sample: Sendable>(
        with sampler: SignalProducer<Sample, Never>
    ) -> SignalProducer<(Value, Sample), Error> {
        SignalProducer<(Value, Sample), Error> { observer, lifetime in
            sampler.startWithSignal { samplerSignal, samplerInterrupter in
                lifetime += samplerInterrupter
                lift { $0.sample(with: samplerSignal) }.start(observer, during: lifetime)
            }
        }
    }

    /// A producer whose runs send their latest value each time `sampler` sends; see
    /// `Signal.sample(on:)`.
    ///
    /// - Parameter sampler: Observed for the duration of each run.
    /// - Returns: The producer of samples.
    public func sample(on sampler: Signal<Void, Never>) -> SignalProducer<Value, Error> {
        lift { $0.sample(on: sampler) }
    }

    /// A producer whose runs start `sampler` and send their latest value each time it sends; see
    /// `Signal.sample(on:)`.
    ///
    /// - Parameter sampler: Started once per run; interrupted when the run ends.
    /// - Returns: The producer of samples.
    public func sample(on sampler: SignalProducer<Void, Never>) -> SignalProducer<Value, Error> {
        sample(with: sampler).map { value, _ in value }
    }
}
