extension SignalProducer {
    /// A producer whose every run applies `transform` to the signal of a run of this producer.
    ///
    /// This is how every signal operator becomes a producer operator: the upstream run starts after
    /// `transform`'s signal is observed, and disposing the lifted run interrupts the upstream run.
    ///
    /// - Parameter transform: Builds the downstream signal from the upstream one, once per run.
    /// - Returns: The lifted producer.
    @inlinable
    public func lift<NewValue: Sendable, NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Signal<Value, Error>) -> Signal<NewValue, NewError>
    ) -> SignalProducer<NewValue, NewError> {
        SignalProducer<NewValue, NewError> { observer, lifetime in
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                lifetime += transform(signal).observe(observer)
            }
        }
    }
}
