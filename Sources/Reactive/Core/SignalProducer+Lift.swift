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

    /// A producer whose every run combines a run of this producer with a run of `other` through
    /// `transform` (for two-input operators such as `combineLatest(with:)`).
    ///
    /// - Returns: The lifted producer.
    @inlinable
    public func lift<OtherValue: Sendable, NewValue: Sendable, NewError: Swift.Error>(
        with other: SignalProducer<OtherValue, Error>,
        _ transform: @escaping @Sendable (Signal<Value, Error>, Signal<OtherValue, Error>) -> Signal<NewValue, NewError>
    ) -> SignalProducer<NewValue, NewError> {
        SignalProducer<NewValue, NewError> { observer, lifetime in
            startWithSignal { first, firstInterrupter in
                other.startWithSignal { second, secondInterrupter in
                    lifetime += firstInterrupter
                    lifetime += secondInterrupter
                    lifetime += transform(first, second).observe(observer)
                }
            }
        }
    }
}
