extension Signal {
    /// A signal that fails with `transform` of this signal's error; values, completion and interruption
    /// pass through.
    ///
    /// - Parameter transform: Runs on the delivering thread, at most once.
    /// - Returns: The signal with the new error type. It terminates when this signal does.
    @inlinable
    public func mapError<NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Error) -> NewError
    ) -> Signal<Value, NewError> {
        derive { event in event.mapError(transform) }
    }
}

extension Signal where Error == Never {
    /// This signal with an error type it can never send, so it can be combined with failing signals.
    ///
    /// - Parameter _: The new error type.
    /// - Returns: A signal with the same events.
    @inlinable
    public func promoteError<NewError: Swift.Error>(_: NewError.Type = NewError.self) -> Signal<Value, NewError> {
        derive { $0.promotingError() }
    }
}

extension SignalProducer {
    /// A producer whose runs fail with `transform` of this producer's error; see `Signal.mapError(_:)`.
    ///
    /// - Parameter transform: Runs at most once per run.
    /// - Returns: The producer with the new error type.
    @inlinable
    public func mapError<NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Error) -> NewError
    ) -> SignalProducer<Value, NewError> {
        fused { event in event.mapError(transform) }
    }
}

extension SignalProducer where Error == Never {
    /// This producer with an error type it can never send, so it can be combined with failing producers.
    ///
    /// - Parameter _: The new error type.
    /// - Returns: A producer with the same events.
    @inlinable
    public func promoteError<NewError: Swift.Error>(
        _: NewError.Type = NewError.self
    ) -> SignalProducer<Value, NewError> {
        fused { $0.promotingError() }
    }
}

extension Signal.Event where Error == Never {
    /// This event with an error type it can never carry: the transform of `promoteError`, for the derived
    /// signal and the fused producer alike.
    @inlinable
    func promotingError<NewError>() -> Signal<Value, NewError>.Event {
        switch self {
        case .value(let value): .value(value)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
