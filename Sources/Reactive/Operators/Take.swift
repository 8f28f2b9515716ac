extension Signal {
    /// A signal of the first `count` values of this signal, which completes right after the last of them.
    ///
    /// Values after the `count`th are dropped; a terminal event that arrives first passes through. With a
    /// `count` of 0 the result has completed before anyone can observe it (observers get `completed` at
    /// once) and this signal is not observed.
    ///
    /// ```swift
    /// numbers.take(first: 2).observeValues { print($0) }
    /// input.send(value: 1)  // prints 1
    /// input.send(value: 2)  // prints 2, then the result completes
    /// ```
    ///
    /// - Parameter count: How many values to forward. Traps if it is negative.
    /// - Returns: The shortened signal.
    public func take(first count: Int) -> Signal<Value, Error> {
        guard count >= 0 else { fatalError("take(first:) needs a count of at least 0, got \(count)") }
        guard count > 0 else { return Signal { output, _ in output.sendCompleted() } }
        return Signal { output, lifetime in
            // Guarded by its lock: how many values may still pass.
            let remaining = LockedState(count)
            lifetime += observe { event in
                guard case .value = event else {
                    output.send(event)
                    return
                }
                let left = remaining.withLock { remaining -> Int? in
                    guard remaining > 0 else { return nil }
                    remaining -= 1
                    return remaining
                }
                guard let left else { return }
                output.send(event)
                if left == 0 { output.sendCompleted() }
            }
        }
    }

    /// A signal that forwards this signal's events until `trigger` sends a value or completes, and then
    /// completes.
    ///
    /// A trigger that fails or is interrupted stops being a trigger: the result then ends only with this
    /// signal. If the trigger has already completed, the result completes at once. The result stops
    /// observing both signals when it terminates.
    ///
    /// - Parameter trigger: Ends the result with its first value or its completion.
    /// - Returns: The signal that ends at the trigger.
    public func take<Trigger: Sendable>(until trigger: Signal<Trigger, Never>) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += trigger.observe { event in
                switch event {
                case .value, .completed: output.sendCompleted()
                case .interrupted: break
                }
            }
            lifetime += observe(output)
        }
    }

    /// A signal that forwards this signal's events until `lifetime` ends, and then completes.
    ///
    /// If `lifetime` has already ended, the result completes at once. The registration on `lifetime` is
    /// removed when the result terminates, so a long-lived lifetime does not keep it.
    ///
    /// ```swift
    /// model.updates.take(during: viewModel.lifetime).observeValues { render($0) }
    /// ```
    ///
    /// - Parameter lifetime: The lifetime whose end completes the result.
    /// - Returns: The signal that ends with `lifetime`.
    @inlinable
    public func take(during lifetime: Lifetime) -> Signal<Value, Error> {
        Signal { output, ownLifetime in
            ownLifetime += lifetime.observeEnded { output.sendCompleted() }
            ownLifetime += observe(output)
        }
    }

    /// A signal that forwards values while `shouldContinue` returns `true` for them, and completes at the
    /// first value for which it returns `false` (that value is dropped).
    ///
    /// `shouldContinue` runs on the delivering thread, once per value, until it first returns `false`.
    ///
    /// - Parameter shouldContinue: Whether the result keeps going with this value.
    /// - Returns: The signal that ends at the first rejected value.
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            // Guarded by its lock: whether a value was rejected.
            let isDone = LockedState(false)
            lifetime += observe { event in
                guard case .value(let value) = event else {
                    output.send(event)
                    return
                }
                guard !isDone.withLock({ $0 }) else { return }
                if shouldContinue(value) {
                    output.send(value: value)
                } else {
                    isDone.withLock { $0 = true }
                    output.sendCompleted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs forward the first `count` values of this producer's runs, then complete and
    /// interrupt the upstream run; see `Signal.take(first:)`.
    ///
    /// With a `count` of 0 a run completes at once without starting the upstream work.
    ///
    /// - Parameter count: How many values to forward. Traps if it is negative.
    /// - Returns: The shortened producer.
    public func take(first count: Int) -> SignalProducer<Value, Error> {
        guard count >= 0 else { fatalError("take(first:) needs a count of at least 0, got \(count)") }
        return lift { $0.take(first: count) }
    }

    /// A producer whose runs forward this producer's events until `trigger` sends a value or completes;
    /// see `Signal.take(until:)`.
    ///
    /// - Parameter trigger: Ends each run with its first value or its completion.
    /// - Returns: The producer that ends at the trigger.
    public func take<Trigger: Sendable>(until trigger: Signal<Trigger, Never>) -> SignalProducer<Value, Error> {
        lift { $0.take(until: trigger) }
    }

    /// A producer whose every run also starts `trigger`, and forwards this producer's events until that
    /// trigger run sends a value or completes.
    ///
    /// The trigger run starts first, so a trigger that fires at once ends the run before this producer's
    /// work starts. Ending the run interrupts both upstream runs.
    ///
    /// - Parameter trigger: Started once per run; ends it with its first value or its completion.
    /// - Returns: The producer that ends at the trigger.
    public func take<Trigger: Sendable>(
        until trigger: SignalProducer<Trigger, Never>
    ) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                trigger.startWithSignal { triggerSignal, triggerInterrupter in
                    lifetime += triggerInterrupter
                    lifetime += signal.take(until: triggerSignal).observe(observer)
                }
            }
        }
    }

    /// A producer whose runs forward this producer's events until `lifetime` ends, and then complete; see
    /// `Signal.take(during:)`.
    ///
    /// - Parameter lifetime: The lifetime whose end completes every run.
    /// - Returns: The producer that ends with `lifetime`.
    public func take(during lifetime: Lifetime) -> SignalProducer<Value, Error> {
        lift { $0.take(during: lifetime) }
    }

    /// A producer whose runs forward values while `shouldContinue` accepts them; see
    /// `Signal.take(while:)`.
    ///
    /// - Parameter shouldContinue: Whether the run keeps going with this value.
    /// - Returns: The producer that ends at the first rejected value.
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> SignalProducer<Value, Error> {
        lift { $0.take(while: shouldContinue) }
    }
}
