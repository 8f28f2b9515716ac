extension Signal {
    /// A signal of `transform` applied to every value; terminal events pass through.
    ///
    /// - Parameter transform: Runs on the delivering thread, once per value.
    /// - Returns: The mapped signal. It lives while this signal lives and it is observed.
    @inlinable
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Signal<NewValue, Error> {
        derive { event in event.map(transform) }
    }

    /// A signal of the value at `keyPath` of every value.
    ///
    /// - Returns: The mapped signal.
    @inlinable
    public func map<NewValue: Sendable>(_ keyPath: KeyPath<Value, NewValue> & Sendable) -> Signal<NewValue, Error> {
        map { $0[keyPath: keyPath] }
    }
}

extension SignalProducer {
    /// A producer whose runs send `transform` of every value of this producer's runs.
    ///
    /// - Returns: The mapped producer.
    @inlinable
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> SignalProducer<NewValue, Error> {
        fused { event in event.map(transform) }
    }

    /// A producer whose runs send the value at `keyPath` of every value.
    ///
    /// - Returns: The mapped producer.
    @inlinable
    public func map<NewValue: Sendable>(
        _ keyPath: KeyPath<Value, NewValue> & Sendable
    ) -> SignalProducer<NewValue, Error> {
        map { $0[keyPath: keyPath] }
    }
}
