extension Signal {
    /// A signal of the latest values of `a` and `b`, sent whenever either sends a value once both have.
    ///
    /// Guarantees:
    /// - Nothing is sent until every input has sent a value; then each value of any input sends the new
    ///   combination.
    /// - Combinations are decided and accepted in one critical section, so even when inputs send on
    ///   different threads, each combination differs from the one delivered before it only by the value
    ///   that caused it.
    /// - The result completes when every input has completed, and fails or is interrupted as soon as any
    ///   input does; it then stops observing the others.
    /// - An observer may send into an input, complete it or dispose its observation from inside its
    ///   callback without deadlock: the resulting event is queued behind the current one.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: The signal of `(a, b)` pairs.
    public static func combineLatest<B: Sendable>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let state = CombineLatestState<any Sendable, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime += a.observe(state.observer(at: 0) { $0 })
            lifetime += b.observe(state.observer(at: 1) { $0 })
        }
    }

    /// A signal of the latest values of `a`, `b` and `c`; see `combineLatest(_:_:)`.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: The signal of `(a, b, c)` triples.
    public static func combineLatest<B: Sendable, C: Sendable>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let state = CombineLatestState<any Sendable, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime += a.observe(state.observer(at: 0) { $0 })
            lifetime += b.observe(state.observer(at: 1) { $0 })
            lifetime += c.observe(state.observer(at: 2) { $0 })
        }
    }

    /// A signal of the latest values of every signal in `signals`, in their order; see
    /// `combineLatest(_:_:)`.
    ///
    /// With no inputs the result completes at once.
    ///
    /// - Parameter signals: The inputs.
    /// - Returns: The signal of arrays holding one value per input.
    public static func combineLatest<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal<[Value], Error> where Signals.Element == Signal<Value, Error> {
        let signals = Array(signals)
        return .makeOperator { input, lifetime in
            let state = CombineLatestState<Value, [Value], Error>(input: input, count: signals.count) { $0 }
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe(state.observer(at: index) { $0 })
            }
        }
    }

    /// A signal of the latest values of this signal and `other`; see `combineLatest(_:_:)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The signal of pairs.
    public func combineLatest<Other: Sendable>(with other: Signal<Other, Error>) -> Signal<(Value, Other), Error> {
        Signal.combineLatest(self, other)
    }
}

extension SignalProducer {
    /// A producer whose every run starts `a`, then `b`, and sends their latest values whenever either
    /// sends once both have; see `Signal.combineLatest(_:_:)`.
    ///
    /// A run ends as the signal version does; when it ends, or is disposed, every inner run is
    /// interrupted.
    ///
    /// - Parameters:
    ///   - a: The first input, started first.
    ///   - b: The second input.
    /// - Returns: The producer of `(a, b)` pairs.
    public static func combineLatest<B: Sendable>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let state = CombineLatestState<any Sendable, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime.start(a, state.observer(at: 0) { $0 })
            lifetime.start(b, state.observer(at: 1) { $0 })
        }
    }

    /// A producer whose every run starts `a`, `b` and `c` in order and sends their latest values; see
    /// `combineLatest(_:_:)`.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: The producer of `(a, b, c)` triples.
    public static func combineLatest<B: Sendable, C: Sendable>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>
    ) -> SignalProducer<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let state = CombineLatestState<any Sendable, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime.start(a, state.observer(at: 0) { $0 })
            lifetime.start(b, state.observer(at: 1) { $0 })
            lifetime.start(c, state.observer(at: 2) { $0 })
        }
    }

    /// A producer whose every run starts every producer of `producers` in order and combines them.
    ///
    /// A run sends arrays of the latest values of the inner runs; see `combineLatest(_:_:)`. With no
    /// inputs a run completes at once.
    ///
    /// - Parameter producers: The inputs.
    /// - Returns: The producer of arrays holding one value per input.
    public static func combineLatest<Producers: Sequence>(
        _ producers: Producers
    ) -> SignalProducer<[Value], Error> where Producers.Element == SignalProducer<Value, Error> {
        let producers = Array(producers)
        return .makeOperator { input, lifetime in
            let state = CombineLatestState<Value, [Value], Error>(input: input, count: producers.count) { $0 }
            for (index, producer) in producers.enumerated() {
                lifetime.start(producer, state.observer(at: index) { $0 })
            }
        }
    }

    /// A producer whose every run starts this producer, then `other`, and sends their latest values; see
    /// `combineLatest(_:_:)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The producer of pairs.
    public func combineLatest<Other: Sendable>(
        with other: SignalProducer<Other, Error>
    ) -> SignalProducer<(Value, Other), Error> {
        SignalProducer.combineLatest(self, other)
    }
}

/// The state of one `combineLatest`: the latest value of each input and which inputs have completed.
///
/// Every decision runs under the output signal's lock (`OperatorInput.send(deciding:)`), so the order of
/// combinations matches the order of the state changes that made them.
final class CombineLatestState<Element: Sendable, Output: Sendable, Error: Swift.Error>: Sendable {
    private let input: OperatorInput<Output, Error>
    /// Builds the output from one value per input (casts and tuples only, never user code).
    private let combine: @Sendable ([Element]) -> Output
    // Guarded by its lock.
    private let state: LockedState<Slots>

    private struct Slots {
        var latest: [Element?]
        /// How many inputs have not sent a value yet.
        var missing: Int
        var isCompleted: [Bool]
        /// How many inputs have not completed yet.
        var running: Int
    }

    init(input: OperatorInput<Output, Error>, count: Int, combine: @escaping @Sendable ([Element]) -> Output) {
        self.input = input
        self.combine = combine
        let slots = Slots(
            latest: Array(repeating: nil, count: count),
            missing: count,
            isCompleted: Array(repeating: false, count: count),
            running: count
        )
        state = LockedState(slots)
        if count == 0 { input.send(.completed) }
    }

    /// The observer of the input at `index`, whose values `erase` turns into elements.
    func observer<Input: Sendable>(
        at index: Int,
        _ erase: @escaping @Sendable (Input) -> Element
    ) -> Signal<Input, Error>.Observer {
        Signal<Input, Error>.Observer({ [self] event in
            receive(event.map(erase), at: index)
        })
    }

    private func receive(_ event: Signal<Element, Error>.Event, at index: Int) {
        input.send { _ in
            state.withLock { slots -> Signal<Output, Error>.Event? in
                switch event {
                case .value(let value):
                    if slots.latest[index] == nil { slots.missing -= 1 }
                    slots.latest[index] = value
                    guard slots.missing == 0 else { return nil }
                    return .value(combine(slots.latest.map { $0! }))
                case .completed:
                    guard !slots.isCompleted[index] else { return nil }
                    slots.isCompleted[index] = true
                    slots.running -= 1
                    return slots.running == 0 ? .completed : nil
                case .failed(let error):
                    return .failed(error)
                case .interrupted:
                    return .interrupted
                }
            }
        }
    }
}
