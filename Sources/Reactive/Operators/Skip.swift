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

    /// A signal that drops this signal's values until `trigger` sends a value or completes, then forwards
    /// every value.
    ///
    /// A trigger that is interrupted never opens the gate. Terminal events of this signal always pass
    /// through. The result stops observing `trigger` once the gate opens or the result terminates.
    ///
    /// ```swift
    /// edits.skip(until: loaded)  // edits made before the first load are ignored
    /// ```
    ///
    /// - Parameter trigger: Opens the gate with its first value or its completion.
    /// - Returns: The signal of the values after the trigger.
    public func skip<Trigger: Sendable>(until trigger: Signal<Trigger, Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            // Guarded by its lock: whether values now pass.
            let isPassing = LockedState(false)
            let triggerObservation = SerialDisposable()
            lifetime += triggerObservation
            triggerObservation.inner = trigger.observe { event in
                switch event {
                case .value, .completed:
                    isPassing.withLock { $0 = true }
                    triggerObservation.dispose()
                case .interrupted: break
                }
            }
            lifetime += observe { event in
                if case .value = event, !isPassing.withLock({ $0 }) { return }
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

    /// A producer whose runs drop their values until `trigger` sends a value or completes; see
    /// `Signal.skip(until:)`.
    ///
    /// - Parameter trigger: Observed for the duration of each run.
    /// - Returns: The producer of the values after the trigger.
    public func skip<Trigger: Sendable>(until trigger: Signal<Trigger, Never>) -> SignalProducer<Value, Error> {
        lift { $0.skip(until: trigger) }
    }

    /// A producer whose runs start `trigger` and drop their values until it sends a value or completes;
    /// see `Signal.skip(until:)`.
    ///
    /// - Parameter trigger: Started once per run, before this producer; interrupted when the gate opens or
    ///   the run ends.
    /// - Returns: The producer of the values after the trigger.
    public func skip<Trigger: Sendable>(
        until trigger: SignalProducer<Trigger, Never>
    ) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                trigger.startWithSignal { triggerSignal, triggerInterrupter in
                    lifetime += triggerInterrupter
                    lifetime += signal.skip(until: triggerSignal).observe(observer)
                }
            }
        }
    }
}
