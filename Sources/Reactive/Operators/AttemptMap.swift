extension Signal {
    /// A signal of `transform` of each value, which fails with the error `transform` throws.
    ///
    /// `transform` runs on the delivering thread, once per value, until it throws; the result then fails
    /// and stops observing this signal. Terminal events of this signal pass through.
    ///
    /// ```swift
    /// responses.attemptMap { (data: Data) throws(APIError) in try decode(data) }
    /// ```
    ///
    /// - Parameter transform: Maps a value, or throws the error that ends the result.
    /// - Returns: The signal of transformed values.
    public func attemptMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) throws(Error) -> NewValue
    ) -> Signal<NewValue, Error> {
        Signal<NewValue, Error> { output, lifetime in
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    do throws(Error) {
                        output.send(value: try transform(value))
                    } catch {
                        output.send(error: error)
                    }
                case .failed(let error): output.send(error: error)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == Never {
    /// A signal of `transform` of each value of this signal (which cannot fail), which fails with the
    /// error `transform` throws; see ``Signal/attemptMap(_:)->Signal<NewValue,Error>``.
    ///
    /// - Parameter transform: Maps a value, or throws the error that ends the result.
    /// - Returns: The signal of transformed values.
    public func attemptMap<NewValue: Sendable, NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Value) throws(NewError) -> NewValue
    ) -> Signal<NewValue, NewError> {
        promoteError(NewError.self).attemptMap(transform)
    }
}

extension SignalProducer {
    /// A producer whose runs map each value with `transform` and fail with the error it throws; see
    /// ``Signal/attemptMap(_:)->Signal<NewValue,Error>``.
    ///
    /// - Parameter transform: Maps a value, or throws the error that ends the run.
    /// - Returns: The producer of transformed values.
    public func attemptMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) throws(Error) -> NewValue
    ) -> SignalProducer<NewValue, Error> {
        lift { $0.attemptMap(transform) }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose runs (which cannot fail) map each value with `transform` and fail with the error
    /// it throws; see ``Signal/attemptMap(_:)->Signal<NewValue,Error>``.
    ///
    /// - Parameter transform: Maps a value, or throws the error that ends the run.
    /// - Returns: The producer of transformed values.
    public func attemptMap<NewValue: Sendable, NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Value) throws(NewError) -> NewValue
    ) -> SignalProducer<NewValue, NewError> {
        lift { $0.attemptMap(transform) }
    }
}
