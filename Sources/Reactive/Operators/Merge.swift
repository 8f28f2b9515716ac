extension Signal {
    /// A signal of the values of every signal in `signals`, forwarded as they arrive.
    ///
    /// The result completes once every input has completed (at once if `signals` is empty), and fails or
    /// is interrupted as soon as any input fails or is interrupted; it then stops observing the others.
    /// Values of one input keep their order; values of inputs that send on different threads are
    /// delivered one at a time, in the order the result accepts them.
    ///
    /// - Parameter signals: The inputs.
    /// - Returns: The merged signal.
    public static func merge<Signals: Sequence>(_ signals: Signals) -> Signal where Signals.Element == Signal {
        let signals = Array(signals)
        return makeOperator { input, lifetime in
            let merger = Merger(input: input, count: signals.count)
            for signal in signals {
                lifetime += signal.observe(merger.observer())
            }
        }
    }

    /// A signal of the values of every signal given; see `merge(_:)-(Sequence)`.
    ///
    /// - Parameter signals: The inputs.
    /// - Returns: The merged signal.
    public static func merge(_ signals: Signal...) -> Signal {
        merge(signals)
    }

    /// A signal of the values of this signal and `other`, forwarded as they arrive; see
    /// `merge(_:)-(Sequence)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The merged signal.
    public func merge(with other: Signal) -> Signal {
        Signal.merge([self, other])
    }
}

extension SignalProducer {
    /// A producer whose every run starts every producer of `producers` in order and forwards their values
    /// as they arrive; see `Signal.merge(_:)-(Sequence)`.
    ///
    /// A run completes once every inner run has completed, and fails or is interrupted as soon as one
    /// does, interrupting the others (a producer after a synchronously failing one never starts).
    /// Disposing the run interrupts every inner run.
    ///
    /// - Parameter producers: The inputs.
    /// - Returns: The merged producer.
    public static func merge<Producers: Sequence>(
        _ producers: Producers
    ) -> SignalProducer where Producers.Element == SignalProducer {
        let producers = Array(producers)
        return makeOperator { input, lifetime in
            let merger = Merger(input: input, count: producers.count)
            for producer in producers {
                lifetime.start(producer, merger.observer())
            }
        }
    }

    /// A producer whose every run starts every producer given in order and forwards their values; see
    /// `merge(_:)-(Sequence)`.
    ///
    /// - Parameter producers: The inputs.
    /// - Returns: The merged producer.
    public static func merge(_ producers: SignalProducer...) -> SignalProducer {
        merge(producers)
    }

    /// A producer whose every run starts this producer, then `other`, and forwards their values as they
    /// arrive; see `merge(_:)-(Sequence)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The merged producer.
    public func merge(with other: SignalProducer) -> SignalProducer {
        SignalProducer.merge([self, other])
    }
}

/// The state of one merge: how many inputs have yet to complete.
final class Merger<Value: Sendable, Error: Swift.Error>: Sendable {
    private let input: OperatorInput<Value, Error>
    // Guarded by its lock: the number of inputs that have not completed.
    private let remaining: LockedState<Int>

    init(input: OperatorInput<Value, Error>, count: Int) {
        self.input = input
        remaining = LockedState(count)
        if count == 0 { input.send(.completed) }
    }

    /// The observer for one input.
    ///
    /// Values are forwarded without a shared decision: each input's completion is processed after its
    /// own values were accepted, so the completion of the last input always follows every value.
    func observer() -> Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer({ [self] event in
            guard case .completed = event else {
                input.send(event)
                return
            }
            let isLast = remaining.withLock { remaining -> Bool in
                remaining -= 1
                return remaining == 0
            }
            if isLast { input.send(.completed) }
        })
    }
}
