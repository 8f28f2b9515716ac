extension Signal {
    /// A signal that combines every value of this signal into one result with `next`, starting from
    /// `initial`, and sends that result when this signal completes, then completes.
    ///
    /// A signal that completes without a value gives `initial`. A failure or interruption passes through
    /// and the result is dropped. `next` runs on the delivering thread, once per value, in order.
    ///
    /// ```swift
    /// numbers.reduce(0, +)  // 1, 2, 3 then completed gives 6
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The result before the first value.
    ///   - next: Combines the result so far with a value.
    /// - Returns: The signal of the one result.
    public func reduce<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Error> {
        reduce(into: initial) { result, value in result = next(result, value) }
    }

    /// A signal that combines every value of this signal into one result that `next` updates in place,
    /// and sends it when this signal completes; see `reduce(_:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The result before the first value.
    ///   - next: Updates the result with a value.
    /// - Returns: The signal of the one result.
    public func reduce<Result: Sendable>(
        into initial: Result,
        _ next: @escaping @Sendable (inout Result, Value) -> Void
    ) -> Signal<Result, Error> {
        Signal<Result, Error> { output, lifetime in
            // Guarded by its lock; deliveries of this signal never overlap, so reading, combining and
            // writing back cannot interleave with another value's.
            let accumulation = LockedState(initial)
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    var result = accumulation.withLock { $0 }
                    next(&result, value)
                    accumulation.withLock { $0 = result }
                case .completed:
                    output.send(value: accumulation.withLock { $0 })
                    output.sendCompleted()
                case .failed(let error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send one result combining all their values, on completion; see
    /// `Signal.reduce(_:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The result before the first value of each run.
    ///   - next: Combines the result so far with a value.
    /// - Returns: The producer of the one result.
    public func reduce<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Value) -> Result
    ) -> SignalProducer<Result, Error> {
        lift { $0.reduce(initial, next) }
    }

    /// A producer whose runs send one result that `next` updates in place with each value, on
    /// completion; see `Signal.reduce(into:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The result before the first value of each run.
    ///   - next: Updates the result with a value.
    /// - Returns: The producer of the one result.
    public func reduce<Result: Sendable>(
        into initial: Result,
        _ next: @escaping @Sendable (inout Result, Value) -> Void
    ) -> SignalProducer<Result, Error> {
        lift { $0.reduce(into: initial, next) }
    }
}
