extension SignalProducer {
    /// A producer whose runs are runs of this producer with every event transformed on its way to the
    /// observer: the model of the producer operators that turn each event into at most one event (`map`,
    /// `filter`, `compactMap`, `skipNil`, `mapError`, `promoteError`).
    ///
    /// A lifted operator makes a signal of its own for every run, and so does the lifted run itself; a
    /// fused one makes none. Each run of the fused producer starts one run of this producer with an
    /// observer that applies `transform` and forwards the result, so `transform` runs in that run's
    /// serialised delivery, once per event, never concurrently with itself. Disposing the fused run
    /// interrupts that run; its `interrupted` reaches the observer through `transform` like any other
    /// event. Since every run is independent, nothing is shared between observers, and the semantics are
    /// those of the lifted operator.
    ///
    /// - Parameter transform: Maps an event, or drops a value by returning `nil`; it must pass terminal
    ///   events through as terminal events.
    /// - Returns: The fused producer.
    @inlinable
    func fused<NewValue: Sendable, NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Signal<Value, Error>.Event) -> Signal<NewValue, NewError>.Event?
    ) -> SignalProducer<NewValue, NewError> {
        SignalProducer<NewValue, NewError>(
            work: .fused { observer, setup in
                start(
                    Signal<Value, Error>.Observer({ event in
                        if let transformed = transform(event) {
                            observer.send(transformed)
                        }
                    }),
                    setup: setup
                )
            })
    }
}
