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
        combining(LatestValues<any Sendable>.self, a, b)
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
        combining(LatestValues<any Sendable>.self, a, b, c)
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
        combining(LatestValues<Value>.self, signals)
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
        combining(LatestValues<any Sendable>.self, a, b)
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
        combining(LatestValues<any Sendable>.self, a, b, c)
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
        combining(LatestValues<Value>.self, producers)
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
