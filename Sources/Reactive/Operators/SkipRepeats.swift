extension Signal {
    /// A signal that drops every value equivalent to the last value it forwarded; terminal events pass
    /// through.
    ///
    /// The first value is always forwarded. `isEquivalent(previous, next)` runs on the delivering thread,
    /// once per value after the first, with no lock held.
    ///
    /// - Parameter isEquivalent: Whether `next` repeats `previous` and should be dropped.
    /// - Returns: The signal without repeats. It terminates when this signal does.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            // Guarded by its lock: the last forwarded value. Deliveries of this signal never overlap, so
            // the read and the write below cannot interleave with another value's.
            let last = LockedState<Value?>(nil)
            lifetime += observe { event in
                guard case .value(let value) = event else {
                    output.send(event)
                    return
                }
                if let previous = last.withLock({ $0 }), isEquivalent(previous, value) { return }
                last.withLock { $0 = value }
                output.send(value: value)
            }
        }
    }
}

extension Signal where Value: Equatable {
    /// A signal that drops every value equal to the last value it forwarded; see `skipRepeats(_:)`.
    ///
    /// - Returns: The signal without repeats.
    public func skipRepeats() -> Signal<Value, Error> {
        skipRepeats(==)
    }
}

extension SignalProducer {
    /// A producer whose runs drop every value equivalent to the last one forwarded.
    ///
    /// See `Signal.skipRepeats(_:)`. Each run starts afresh.
    ///
    /// - Parameter isEquivalent: Whether `next` repeats `previous` and should be dropped.
    /// - Returns: The producer without repeats.
    public func skipRepeats(
        _ isEquivalent: @escaping @Sendable (Value, Value) -> Bool
    ) -> SignalProducer<Value, Error> {
        lift { $0.skipRepeats(isEquivalent) }
    }
}

extension SignalProducer where Value: Equatable {
    /// A producer whose runs drop every value equal to the last one forwarded.
    ///
    /// - Returns: The producer without repeats.
    public func skipRepeats() -> SignalProducer<Value, Error> {
        lift { $0.skipRepeats() }
    }
}
