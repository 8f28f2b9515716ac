extension Signal {
    /// A signal that drops the first `count` values of this signal and forwards everything after them.
    ///
    /// Terminal events always pass through, even before `count` values have been dropped.
    ///
    /// - Parameter count: How many values to drop. Traps if it is negative.
    /// - Returns: The signal without its first `count` values.
    public func skip(first count: Int) -> Signal<Value, Error> {
        guard count >= 0 else { fatalError("skip(first:) needs a count of at least 0, got \(count)") }
        guard count > 0 else { return Signal { output, lifetime in lifetime += observe(output) } }
        return Signal { output, lifetime in
            // Guarded by its lock: how many values are still to be dropped.
            let toSkip = LockedState(count)
            lifetime += observe { event in
                if case .value = event {
                    let skips = toSkip.withLock { toSkip -> Bool in
                        guard toSkip > 0 else { return false }
                        toSkip -= 1
                        return true
                    }
                    if skips { return }
                }
                output.send(event)
            }
        }
    }

    /// A signal that drops values while `shouldSkip` returns `true` for them, then forwards every value
    /// from the first one it rejects on.
    ///
    /// `shouldSkip` runs on the delivering thread and is not called again once it has returned `false`.
    /// Terminal events always pass through.
    ///
    /// - Parameter shouldSkip: Whether this value is still to be dropped.
    /// - Returns: The signal without its leading skipped values.
    public func skip(while shouldSkip: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            // Guarded by its lock: whether values now pass.
            let isPassing = LockedState(false)
            lifetime += observe { event in
                if case .value(let value) = event, !isPassing.withLock({ $0 }) {
                    if shouldSkip(value) { return }
                    isPassing.withLock { $0 = true }
                }
                output.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs drop the first `count` values of this producer's runs; see
    /// `Signal.skip(first:)`.
    ///
    /// - Parameter count: How many values to drop per run. Traps if it is negative.
    /// - Returns: The producer without its first `count` values.
    public func skip(first count: Int) -> SignalProducer<Value, Error> {
        guard count >= 0 else { fatalError("skip(first:) needs a count of at least 0, got \(count)") }
        return lift { $0.skip(first: count) }
    }

    /// A producer whose runs drop values while `shouldSkip` accepts them; see `Signal.skip(while:)`.
    ///
    /// - Parameter shouldSkip: Whether this value is still to be dropped.
    /// - Returns: The producer without its leading skipped values.
    public func skip(while shouldSkip: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        lift { $0.skip(while: shouldSkip) }
    }
}
