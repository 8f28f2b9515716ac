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
        combining(QueuedValues<any Sendable>.self, a, b)
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
        combining(QueuedValues<any Sendable>.self, a, b, c)
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
        combining(QueuedValues<Value>.self, signals)
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
        combining(QueuedValues<any Sendable>.self, a, b)
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
        combining(QueuedValues<any Sendable>.self, a, b, c)
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
        combining(QueuedValues<Value>.self, producers)
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
