extension Signal {
    /// A signal of pairs made of the `n`th value of `a` and the `n`th value of `b`.
    ///
    /// Guarantees:
    /// - Each input's values are buffered until every input has one; then the oldest value of each is
    ///   taken and the tuple is sent. Tuples are decided and accepted in one critical section, so they
    ///   keep the order of the inputs' values even when inputs send on different threads.
    /// - The result completes as soon as an input has completed and its buffer is empty (no further tuple
    ///   can be made), right after the last tuple. It fails or is interrupted as soon as any input does,
    ///   dropping the buffers; it then stops observing the others.
    /// - An observer may send into an input, end it or dispose its observation from inside its callback
    ///   without deadlock: the resulting event is queued behind the current one.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    /// - Returns: The signal of `(a, b)` pairs.
    /// - Complexity: Memory grows with the values an input has sent ahead of the slowest input.
    public static func zip<B: Sendable>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let state = ZipState<any Sendable, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime += a.observe(state.observer(at: 0) { $0 })
            lifetime += b.observe(state.observer(at: 1) { $0 })
        }
    }

    /// A signal of triples made of the `n`th values of `a`, `b` and `c`; see `zip(_:_:)`.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: The signal of `(a, b, c)` triples.
    public static func zip<B: Sendable, C: Sendable>(
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let state = ZipState<any Sendable, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime += a.observe(state.observer(at: 0) { $0 })
            lifetime += b.observe(state.observer(at: 1) { $0 })
            lifetime += c.observe(state.observer(at: 2) { $0 })
        }
    }

    /// A signal of arrays made of the `n`th value of every signal in `signals`; see `zip(_:_:)`.
    ///
    /// With no inputs the result completes at once.
    ///
    /// - Parameter signals: The inputs.
    /// - Returns: The signal of arrays holding one value per input.
    public static func zip<Signals: Sequence>(
        _ signals: Signals
    ) -> Signal<[Value], Error> where Signals.Element == Signal<Value, Error> {
        let signals = Array(signals)
        return .makeOperator { input, lifetime in
            let state = ZipState<Value, [Value], Error>(input: input, count: signals.count) { $0 }
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe(state.observer(at: index) { $0 })
            }
        }
    }

    /// A signal of pairs made of the `n`th values of this signal and `other`; see `zip(_:_:)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The signal of pairs.
    public func zip<Other: Sendable>(with other: Signal<Other, Error>) -> Signal<(Value, Other), Error> {
        Signal.zip(self, other)
    }
}

extension SignalProducer {
    /// A producer whose every run starts `a`, then `b`, and pairs their `n`th values; see
    /// `Signal.zip(_:_:)`.
    ///
    /// When a run ends, or is disposed, every inner run is interrupted.
    ///
    /// - Parameters:
    ///   - a: The first input, started first.
    ///   - b: The second input.
    /// - Returns: The producer of `(a, b)` pairs.
    public static func zip<B: Sendable>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let state = ZipState<any Sendable, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime.start(a, state.observer(at: 0) { $0 })
            lifetime.start(b, state.observer(at: 1) { $0 })
        }
    }

    /// A producer whose every run starts `a`, `b` and `c` in order and makes triples of their `n`th
    /// values; see `zip(_:_:)`.
    ///
    /// - Parameters:
    ///   - a: The first input.
    ///   - b: The second input.
    ///   - c: The third input.
    /// - Returns: The producer of `(a, b, c)` triples.
    public static func zip<B: Sendable, C: Sendable>(
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>
    ) -> SignalProducer<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let state = ZipState<any Sendable, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime.start(a, state.observer(at: 0) { $0 })
            lifetime.start(b, state.observer(at: 1) { $0 })
            lifetime.start(c, state.observer(at: 2) { $0 })
        }
    }

    /// A producer whose every run starts every producer of `producers` in order and zips their values.
    ///
    /// A run sends arrays of the `n`th values of the inner runs; see `zip(_:_:)`. With no inputs a run
    /// completes at once.
    ///
    /// - Parameter producers: The inputs.
    /// - Returns: The producer of arrays holding one value per input.
    public static func zip<Producers: Sequence>(
        _ producers: Producers
    ) -> SignalProducer<[Value], Error> where Producers.Element == SignalProducer<Value, Error> {
        let producers = Array(producers)
        return .makeOperator { input, lifetime in
            let state = ZipState<Value, [Value], Error>(input: input, count: producers.count) { $0 }
            for (index, producer) in producers.enumerated() {
                lifetime.start(producer, state.observer(at: index) { $0 })
            }
        }
    }

    /// A producer whose every run starts this producer, then `other`, and pairs their `n`th values; see
    /// `zip(_:_:)`.
    ///
    /// - Parameter other: The second input.
    /// - Returns: The producer of pairs.
    public func zip<Other: Sendable>(with other: SignalProducer<Other, Error>) -> SignalProducer<(Value, Other), Error>
    {
        SignalProducer.zip(self, other)
    }
}

/// The state of one `zip`: a buffer of values per input and which inputs have completed.
///
/// Every decision runs under the output signal's lock (`OperatorInput.send(deciding:)`).
final class ZipState<Element: Sendable, Output: Sendable, Error: Swift.Error>: Sendable {
    private let input: OperatorInput<Output, Error>
    /// Builds the output from one value per input (casts and tuples only, never user code).
    private let combine: @Sendable ([Element]) -> Output
    // Guarded by its lock.
    private let state: LockedState<Buffers>

    private struct Buffers {
        var pending: [FIFOQueue<Element>]
        /// How many buffers are empty.
        var emptyCount: Int
        var isCompleted: [Bool]
        /// Whether a terminal event has been decided; nothing is decided after it.
        var isDone = false

        /// Whether an input has completed with nothing left to pair, so no tuple can ever be made.
        var isExhausted: Bool {
            pending.indices.contains { isCompleted[$0] && pending[$0].isEmpty }
        }
    }

    init(input: OperatorInput<Output, Error>, count: Int, combine: @escaping @Sendable ([Element]) -> Output) {
        self.input = input
        self.combine = combine
        let buffers = Buffers(
            pending: Array(repeating: FIFOQueue(), count: count),
            emptyCount: count,
            isCompleted: Array(repeating: false, count: count)
        )
        state = LockedState(buffers)
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
        input.send { followUp in
            state.withLock { buffers -> Signal<Output, Error>.Event? in
                guard !buffers.isDone else { return nil }
                switch event {
                case .value(let value):
                    if buffers.pending[index].isEmpty { buffers.emptyCount -= 1 }
                    buffers.pending[index].append(value)
                    guard buffers.emptyCount == 0 else { return nil }
                    var tuple: [Element] = []
                    tuple.reserveCapacity(buffers.pending.count)
                    for slot in buffers.pending.indices {
                        tuple.append(buffers.pending[slot].popFirst()!)
                        if buffers.pending[slot].isEmpty { buffers.emptyCount += 1 }
                    }
                    if buffers.isExhausted {
                        buffers.isDone = true
                        followUp = .completed
                    }
                    return .value(combine(tuple))
                case .completed:
                    buffers.isCompleted[index] = true
                    guard buffers.pending[index].isEmpty else { return nil }
                    buffers.isDone = true
                    return .completed
                case .failed(let error):
                    buffers.isDone = true
                    return .failed(error)
                case .interrupted:
                    buffers.isDone = true
                    return .interrupted
                }
            }
        }
    }
}
