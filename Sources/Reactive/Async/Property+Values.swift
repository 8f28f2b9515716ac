extension Property {
    /// The current value, then every change, as an `AsyncSequence`.
    ///
    /// Each iterator reads the value it starts with, then every later change, with no gap and no
    /// duplicate even while other threads write; every change is buffered until read (see
    /// ``AsyncValues``). The sequence of a view does not keep the ``MutableProperty`` alive: it ends when
    /// that mutable property is released. The sequence of a fed or derived property keeps the derivation
    /// alive while it is iterated, and ends when the property's sources complete.
    ///
    /// ```swift
    /// for await isLoading in viewModel.isLoading.values {
    ///     spinner.isHidden = !isLoading
    /// }
    /// ```
    public var values: AsyncValues<Value, Never> {
        producer.values
    }

    /// The current value, then every change, buffered as `bufferingPolicy` says; see ``values``.
    ///
    /// `.bufferingNewest(1)` suits a consumer that only needs the latest state.
    ///
    /// - Parameter bufferingPolicy: What to keep while the consumer is busy. A bounded policy's limit
    ///   must be at least 0.
    /// - Returns: The sequence of values.
    public func values(bufferingPolicy: AsyncBufferingPolicy) -> AsyncValues<Value, Never> {
        producer.values(bufferingPolicy: bufferingPolicy)
    }
}

extension MutableProperty {
    /// The current value, then every change, as an `AsyncSequence`; see `Property.values`.
    ///
    /// The sequence ends when the property is released.
    public var values: AsyncValues<Value, Never> {
        producer.values
    }

    /// The current value, then every change, buffered as `bufferingPolicy` says; see `Property.values`.
    ///
    /// - Parameter bufferingPolicy: What to keep while the consumer is busy. A bounded policy's limit
    ///   must be at least 0.
    /// - Returns: The sequence of values.
    public func values(bufferingPolicy: AsyncBufferingPolicy) -> AsyncValues<Value, Never> {
        producer.values(bufferingPolicy: bufferingPolicy)
    }
}
