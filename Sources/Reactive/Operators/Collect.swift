extension Signal {
    /// A signal that sends every value of this signal as one array when it completes, then completes.
    ///
    /// A signal that completes without a value gives an empty array. If this signal fails or is
    /// interrupted, the values gathered so far are dropped and the terminal event passes through.
    ///
    /// - Returns: The signal of the one array.
    /// - Complexity: Memory grows with the number of values until completion.
    public func collect() -> Signal<[Value], Error> {
        collect(upTo: nil)
    }

    /// A signal that sends this signal's values in arrays of `count`, and the remaining values (if any)
    /// as a shorter array when it completes.
    ///
    /// ```swift
    /// numbers.collect(count: 2)  // 1, 2, 3 then completed gives [1, 2], [3]
    /// ```
    ///
    /// If this signal fails or is interrupted, a partial array is dropped.
    ///
    /// - Parameter count: The size of every array but the last. Traps if it is less than 1.
    /// - Returns: The signal of arrays.
    public func collect(count: Int) -> Signal<[Value], Error> {
        guard count >= 1 else { fatalError("collect(count:) needs a count of at least 1, got \(count)") }
        return collect(upTo: count)
    }

    /// Gathers values into arrays of `limit` (unbounded if `nil`), sending the rest on completion.
    private func collect(upTo limit: Int?) -> Signal<[Value], Error> {
        Signal<[Value], Error> { output, lifetime in
            // Guarded by its lock: the values of the array being filled.
            let buffer = LockedState<[Value]>([])
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    let full = buffer.withLock { buffer -> [Value]? in
                        buffer.append(value)
                        guard let limit, buffer.count == limit else { return nil }
                        defer { buffer = [] }
                        return buffer
                    }
                    if let full { output.send(value: full) }
                case .completed:
                    let rest = buffer.withLock { buffer in
                        defer { buffer = [] }
                        return buffer
                    }
                    if limit == nil || !rest.isEmpty { output.send(value: rest) }
                    output.sendCompleted()
                case .failed(let error): output.send(error: error)
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send all their values as one array on completion; see `Signal.collect()`.
    ///
    /// - Returns: The producer of the one array.
    public func collect() -> SignalProducer<[Value], Error> {
        lift { $0.collect() }
    }

    /// A producer whose runs send their values in arrays of `count`; see `Signal.collect(count:)`.
    ///
    /// - Parameter count: The size of every array but the last. Traps if it is less than 1.
    /// - Returns: The producer of arrays.
    public func collect(count: Int) -> SignalProducer<[Value], Error> {
        guard count >= 1 else { fatalError("collect(count:) needs a count of at least 1, got \(count)") }
        return lift { $0.collect(count: count) }
    }
}
