extension Signal {
    /// A signal that forwards this signal's events, and if it fails, starts the producer `recover`
    /// makes from the error and continues with that run's events instead of the failure.
    ///
    /// Values before the failure pass through; completion and interruption of this signal end the result
    /// as they are. The recovery run is interrupted if the result tears down.
    ///
    /// ```swift
    /// loads.flatMapError { _ in SignalProducer(value: .placeholder) }
    /// ```
    ///
    /// - Parameter recover: Called on the delivering thread, at most once, with the error.
    /// - Returns: The recovered signal.
    public func flatMapError<NewError: Swift.Error>(
        _ recover: @escaping @Sendable (Error) -> SignalProducer<Value, NewError>
    ) -> Signal<Value, NewError> {
        Signal<Value, NewError> { output, lifetime in
            lifetime += observe { event in
                switch event {
                case .value(let value): output.send(value: value)
                case .failed(let error): recover(error).start(output, during: lifetime)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs continue with a run of the producer `recover` makes from the error if this
    /// producer's run fails; see `Signal.flatMapError(_:)`.
    ///
    /// - Parameter recover: Called at most once per run, with the error.
    /// - Returns: The recovered producer.
    public func flatMapError<NewError: Swift.Error>(
        _ recover: @escaping @Sendable (Error) -> SignalProducer<Value, NewError>
    ) -> SignalProducer<Value, NewError> {
        lift { $0.flatMapError(recover) }
    }
}
