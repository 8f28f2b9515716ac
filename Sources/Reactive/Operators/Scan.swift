extension Signal {
    /// A signal of running accumulations: each value is combined with the previous result by `next`,
    /// starting from `initial`, and the new result is sent.
    ///
    /// `initial` itself is not sent. `next` runs on the delivering thread, once per value, in order, with
    /// no lock held. Terminal events pass through.
    ///
    /// ```swift
    /// numbers.scan(0, +)  // 1, 2, 3 gives 1, 3, 6
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value.
    ///   - next: Combines the previous accumulation with a value.
    /// - Returns: The signal of accumulations.
    public func scan<State: Sendable>(
        _ initial: State,
        _ next: @escaping @Sendable (State, Value) -> State
    ) -> Signal<State, Error> {
        Signal<State, Error> { output, lifetime in
            // Guarded by its lock: the last accumulation. Deliveries of this signal never overlap, so no
            // other value's read or write can fall between the read and the write below.
            let accumulation = LockedState(initial)
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    let result = next(accumulation.withLock { $0 }, value)
                    accumulation.withLock { $0 = result }
                    output.send(value: result)
                case .failed(let error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }

    /// A signal of running accumulations, where `next` updates the accumulation in place; see
    /// `scan(_:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value.
    ///   - next: Folds a value into the accumulation.
    /// - Returns: The signal of accumulations.
    public func scan<State: Sendable>(
        into initial: State,
        _ next: @escaping @Sendable (inout State, Value) -> Void
    ) -> Signal<State, Error> {
        scan(initial) { state, value in
            var state = state
            next(&state, value)
            return state
        }
    }

    /// A signal of each value paired with the value before it, the first value being paired with
    /// `initial`.
    ///
    /// - Parameter initial: Stands for the value before the first.
    /// - Returns: The signal of `(previous, current)` pairs.
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Error> {
        scan((initial, initial)) { pair, value in (pair.1, value) }
    }

    /// A signal of each value paired with the value before it, from the second value on.
    ///
    /// The first value only becomes the "previous" of the second.
    ///
    /// - Returns: The signal of `(previous, current)` pairs.
    public func combinePrevious() -> Signal<(Value, Value), Error> {
        scan((previous: Value?.none, pair: ((Value, Value))?.none)) { state, value in
            (value, state.previous.map { ($0, value) })
        }
        .compactMap { $0.pair }
    }
}

extension SignalProducer {
    /// A producer whose runs send running accumulations of this producer's values.
    ///
    /// See `Signal.scan(_:_:)`. Each run starts again from `initial`.
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value of a run.
    ///   - next: Combines the previous accumulation with a value.
    /// - Returns: The producer of accumulations.
    public func scan<State: Sendable>(
        _ initial: State,
        _ next: @escaping @Sendable (State, Value) -> State
    ) -> SignalProducer<State, Error> {
        lift { $0.scan(initial, next) }
    }

    /// A producer whose runs send running accumulations, updated in place; see `Signal.scan(into:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value of a run.
    ///   - next: Folds a value into the accumulation.
    /// - Returns: The producer of accumulations.
    public func scan<State: Sendable>(
        into initial: State,
        _ next: @escaping @Sendable (inout State, Value) -> Void
    ) -> SignalProducer<State, Error> {
        lift { $0.scan(into: initial, next) }
    }

    /// A producer whose runs pair each value with the one before it, the first with `initial`.
    ///
    /// - Parameter initial: Stands for the value before the first of each run.
    /// - Returns: The producer of `(previous, current)` pairs.
    public func combinePrevious(_ initial: Value) -> SignalProducer<(Value, Value), Error> {
        lift { $0.combinePrevious(initial) }
    }

    /// A producer whose runs pair each value with the one before it, from the second value on.
    ///
    /// - Returns: The producer of `(previous, current)` pairs.
    public func combinePrevious() -> SignalProducer<(Value, Value), Error> {
        lift { $0.combinePrevious() }
    }
}
