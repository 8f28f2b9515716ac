extension Signal {
    /// A signal that sends the last `count` values of this signal, in order, when it completes, then
    /// completes.
    ///
    /// A failure or interruption passes through and the values kept are dropped.
    ///
    /// ```swift
    /// numbers.take(last: 2)  // 1, 2, 3 then completed gives 2, 3
    /// ```
    ///
    /// - Parameter count: How many values to keep. Traps if it is negative.
    /// - Returns: The signal of the last values.
    /// - Complexity: Keeps at most `count` values.
    public func take(last count: Int) -> Signal<Value, Error> {
        guard count >= 0 else { fatalError("take(last:) needs a count of at least 0, got \(count)") }
        return Signal { output, lifetime in
            // Guarded by its lock: the last values, oldest first.
            let buffer = LockedState(FIFOQueue<Value>())
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    guard count > 0 else { return }
                    buffer.withLock { buffer in
                        buffer.append(value)
                        if buffer.count > count { _ = buffer.popFirst() }
                    }
                case .completed:
                    var kept = buffer.withLock { buffer in
                        defer { buffer = FIFOQueue() }
                        return buffer
                    }
                    while let value = kept.popFirst() { output.send(value: value) }
                    output.sendCompleted()
                case .failed(let error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send their last `count` values on completion; see `Signal.take(last:)`.
    ///
    /// - Parameter count: How many values to keep per run. Traps if it is negative.
    /// - Returns: The producer of the last values.
    public func take(last count: Int) -> SignalProducer<Value, Error> {
        guard count >= 0 else { fatalError("take(last:) needs a count of at least 0, got \(count)") }
        return lift { $0.take(last: count) }
    }
}
