extension Signal {
    /// A signal of the values for which `isIncluded` returns `true`; terminal events pass through.
    ///
    /// `isIncluded` runs on the delivering thread, once per value, in order, never concurrently with
    /// itself. The result terminates when this signal does.
    ///
    /// - Parameter isIncluded: Decides whether a value is forwarded.
    /// - Returns: The filtered signal. It lives while this signal lives and it is observed.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        derive { $0.filtered(isIncluded) }
    }

    /// A signal of the non-`nil` results of `transform` applied to every value; terminal events pass
    /// through.
    ///
    /// `transform` runs on the delivering thread, once per value, in order.
    ///
    /// - Parameter transform: Maps a value, or drops it by returning `nil`.
    /// - Returns: The transformed signal. It terminates when this signal does.
    @inlinable
    public func compactMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue?
    ) -> Signal<NewValue, Error> {
        derive { $0.compactMapped(transform) }
    }

    /// A signal of the wrapped values of this signal's non-`nil` values; terminal events pass through.
    ///
    /// - Returns: The unwrapped signal. It terminates when this signal does.
    @inlinable
    public func skipNil<Wrapped: Sendable>() -> Signal<Wrapped, Error> where Value == Wrapped? {
        compactMap { $0 }
    }
}

extension SignalProducer {
    /// A producer whose runs forward the values of this producer's runs for which `isIncluded` returns
    /// `true`; see `Signal.filter(_:)`.
    ///
    /// - Parameter isIncluded: Decides whether a value is forwarded; called once per value of each run.
    /// - Returns: The filtered producer.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        fused { $0.filtered(isIncluded) }
    }

    /// A producer whose runs send the non-`nil` results of `transform`; see `Signal.compactMap(_:)`.
    ///
    /// - Parameter transform: Maps a value, or drops it by returning `nil`.
    /// - Returns: The transformed producer.
    @inlinable
    public func compactMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue?
    ) -> SignalProducer<NewValue, Error> {
        fused { $0.compactMapped(transform) }
    }

    /// A producer whose runs send the wrapped values of this producer's non-`nil` values.
    ///
    /// - Returns: The unwrapped producer.
    @inlinable
    public func skipNil<Wrapped: Sendable>() -> SignalProducer<Wrapped, Error> where Value == Wrapped? {
        compactMap { $0 }
    }
}

extension Signal.Event {
    /// This event, or `nil` if it is a value for which `isIncluded` returns `false`: the transform of
    /// `filter`, for the derived signal and the fused producer alike.
    @inlinable
    func filtered(_ isIncluded: (Value) -> Bool) -> Self? {
        if case .value(let value) = self, !isIncluded(value) { return nil }
        return self
    }

    /// This event with its value replaced by `transform` of it, or `nil` if that is `nil`: the transform
    /// of `compactMap`, for the derived signal and the fused producer alike.
    @inlinable
    func compactMapped<NewValue>(_ transform: (Value) -> NewValue?) -> Signal<NewValue, Error>.Event? {
        switch self {
        case .value(let value): transform(value).map { .value($0) }
        case .failed(let error): .failed(error)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
