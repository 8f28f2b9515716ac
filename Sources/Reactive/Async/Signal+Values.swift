extension Signal {
    /// The values this signal sends from the time a loop starts reading them, as an `AsyncSequence`.
    ///
    /// Each iterator observes the signal when it is made; it ends when the signal completes or is
    /// interrupted, and throws the signal's error if it fails. Every value is buffered until read
    /// (see ``AsyncValues``).
    ///
    /// ```swift
    /// for await value in signal.values {
    ///     print(value)
    /// }
    /// ```
    public var values: AsyncValues<Value, Error> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values this signal sends, buffered as `bufferingPolicy` says; see ``values``.
    ///
    /// - Parameter bufferingPolicy: What to keep while the consumer is busy. A bounded policy's limit
    ///   must be at least 0.
    /// - Returns: The sequence of values.
    public func values(bufferingPolicy: AsyncBufferingPolicy) -> AsyncValues<Value, Error> {
        AsyncValues(bufferingPolicy: bufferingPolicy) { [self] channel in
            channel.attach(observe(channel.observer))
        }
    }
}
