extension Signal {
    /// A signal that fails with `error`, on `scheduler`, unless this one terminates within `interval`.
    ///
    /// The clock starts when the operator is applied. Events of this signal pass through at once, on the
    /// thread that sends them; the timeout failure is delivered on `scheduler`. Whichever terminal event
    /// comes first wins; terminating cancels the timer.
    ///
    /// ```swift
    /// response.timeout(after: .seconds(10), raising: .timedOut, on: scheduler)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long to wait for termination; it must not be negative.
    ///   - error: The failure to send when time runs out.
    ///   - scheduler: Where to wait and send the failure.
    /// - Returns: A signal of the same events, or of the values so far then `error`.
    public func timeout(
        after interval: Duration,
        raising error: Error,
        on scheduler: some TimeScheduler
    ) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        return Signal { output, lifetime in
            lifetime += scheduler.schedule(after: interval) { output.send(error: error) }
            lifetime += observe(output)
        }
    }
}

extension Signal where Error == Never {
    /// A signal that fails with `error`, on `scheduler`, unless this one (which cannot fail) terminates
    /// within `interval`; see ``Signal/timeout(after:raising:on:)->Signal<Value,Error>``.
    ///
    /// - Parameters:
    ///   - interval: How long to wait for termination; it must not be negative.
    ///   - error: The failure to send when time runs out.
    ///   - scheduler: Where to wait and send the failure.
    /// - Returns: A signal of the same values that may fail with `error`.
    public func timeout<NewError: Swift.Error>(
        after interval: Duration,
        raising error: NewError,
        on scheduler: some TimeScheduler
    ) -> Signal<Value, NewError> {
        requireNonNegative(interval, "interval")
        return Signal<Value, NewError> { output, lifetime in
            lifetime += scheduler.schedule(after: interval) { output.send(error: error) }
            lifetime += observe { event in
                switch event {
                case .value(let value): output.send(value: value)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs fail with `error`, on `scheduler`, unless they terminate within `interval`
    /// of their start; see ``Signal/timeout(after:raising:on:)->Signal<Value,Error>``.
    ///
    /// - Parameters:
    ///   - interval: How long to wait for termination; it must not be negative.
    ///   - error: The failure to send when time runs out.
    ///   - scheduler: Where to wait and send the failure.
    /// - Returns: The producer with a deadline.
    public func timeout(
        after interval: Duration,
        raising error: Error,
        on scheduler: some TimeScheduler
    ) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        return lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose runs (which cannot fail) fail with `error`, on `scheduler`, unless they terminate
    /// within `interval` of their start; see ``Signal/timeout(after:raising:on:)->Signal<Value,Error>``.
    ///
    /// - Parameters:
    ///   - interval: How long to wait for termination; it must not be negative.
    ///   - error: The failure to send when time runs out.
    ///   - scheduler: Where to wait and send the failure.
    /// - Returns: The producer with a deadline.
    public func timeout<NewError: Swift.Error>(
        after interval: Duration,
        raising error: NewError,
        on scheduler: some TimeScheduler
    ) -> SignalProducer<Value, NewError> {
        requireNonNegative(interval, "interval")
        return lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}
