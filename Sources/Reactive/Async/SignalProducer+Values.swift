extension SignalProducer {
    /// The values of a run of this producer, as an `AsyncSequence`: each loop starts its own run.
    ///
    /// Making the iterator starts the run; leaving the loop or cancelling the consuming task disposes
    /// it. The sequence ends when the run completes or is interrupted, and throws the run's error if it
    /// fails. Every value is buffered until read, so a synchronous producer of any length is read in full
    /// (see ``AsyncValues``).
    ///
    /// ```swift
    /// for try await page in pages.values {
    ///     show(page)
    /// }
    /// ```
    public var values: AsyncValues<Value, Error> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values of a run of this producer, buffered as `bufferingPolicy` says; see ``values``.
    ///
    /// - Parameter bufferingPolicy: What to keep while the consumer is busy. A bounded policy's limit
    ///   must be at least 0.
    /// - Returns: The sequence of values.
    public func values(bufferingPolicy: AsyncBufferingPolicy) -> AsyncValues<Value, Error> {
        AsyncValues(bufferingPolicy: bufferingPolicy) { [self] channel in
            // The run's interrupter is attached before the work starts, so a consumer that goes away
            // during a synchronous run stops it.
            startWithSignal { signal, interrupter in
                channel.attach(interrupter)
                signal.observe(channel.observer)
            }
        }
    }
}
