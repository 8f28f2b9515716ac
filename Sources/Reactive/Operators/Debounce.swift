extension Signal {
    /// A signal that sends a value only once `interval` has passed without a newer one, on `scheduler`.
    ///
    /// Every value restarts the wait; when the wait ends, the latest value is delivered on `scheduler`.
    /// A burst of values closer together than `interval` yields its last value only.
    ///
    /// On completion, a value still waiting is sent at once, then the completion, when
    /// `flushOnCompletion` is `true` (the default, as in swift-async-algorithms and RxSwift: the final
    /// value of a stream is never lost); with `false` it is dropped, as ReactiveSwift's default
    /// `discardWhenCompleted: true` does. A failure or an interruption drops the waiting value. Terminal
    /// events are delivered on `scheduler` without waiting.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), on: .main).observeValues { search($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time a value must survive; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    ///   - flushOnCompletion: Whether completion sends the value still waiting before it completes.
    /// - Returns: The debounced signal.
    public func debounce(
        _ interval: Duration,
        on scheduler: some TimeScheduler,
        flushOnCompletion: Bool = true
    ) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        return Signal { output, lifetime in
            let state = LockedState(DebounceState<Value>())
            let timer = SerialDisposable()
            lifetime += timer
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    let generation = state.withLock { state in state.hold(value) }
                    timer.inner = scheduler.schedule(after: interval) {
                        if let value = state.withLock({ state in state.take(ifGeneration: generation) }) {
                            output.send(value: value)
                        }
                    }
                case .completed where flushOnCompletion:
                    lifetime += scheduler.schedule {
                        if let value = state.withLock({ state in state.take(ifGeneration: nil) }) {
                            output.send(value: value)
                        }
                        output.sendCompleted()
                    }
                case .completed, .failed, .interrupted:
                    lifetime += scheduler.schedule { output.send(event) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send a value only once `interval` has passed without a newer one; see
    /// ``Signal/debounce(_:on:flushOnCompletion:)``.
    ///
    /// - Parameters:
    ///   - interval: The quiet time a value must survive; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    ///   - flushOnCompletion: Whether completion sends the value still waiting before it completes.
    /// - Returns: The debounced producer.
    public func debounce(
        _ interval: Duration,
        on scheduler: some TimeScheduler,
        flushOnCompletion: Bool = true
    ) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        return lift { $0.debounce(interval, on: scheduler, flushOnCompletion: flushOnCompletion) }
    }
}

/// The value a `debounce` holds, and which wait may release it.
private struct DebounceState<Value> {
    private var pending: Value?
    private var generation: UInt64 = 0

    /// Holds `value`, replacing any older one; returns the generation its wait must match.
    mutating func hold(_ value: Value) -> UInt64 {
        pending = value
        generation &+= 1
        return generation
    }

    /// Takes the held value if the wait of `expected` is still the latest (any wait, for `nil`).
    mutating func take(ifGeneration expected: UInt64?) -> Value? {
        guard expected == nil || expected == generation else { return nil }
        defer { pending = nil }
        return pending
    }
}
