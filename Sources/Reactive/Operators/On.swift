extension Signal {
    /// A signal with the same events that runs the given side effects as each event passes.
    ///
    /// For each event, on the delivering thread and before the event is forwarded: `event` runs first,
    /// then the closure for its kind (`value`, `failed`, `completed`, `interrupted`), then `terminated`
    /// for a terminal event. `disposed` runs once when the result's lifetime ends: after its terminal
    /// event has been delivered, or when it tears down unobserved. No closure runs with a lock held.
    ///
    /// ```swift
    /// requests.on(value: { log("got \($0)") }, terminated: { log("done") })
    /// ```
    ///
    /// - Parameters:
    ///   - event: Runs for every event.
    ///   - failed: Runs with the error of a failure.
    ///   - completed: Runs on completion.
    ///   - interrupted: Runs on interruption.
    ///   - terminated: Runs after the kind's closure for any terminal event.
    ///   - disposed: Runs once when the result's lifetime ends.
    ///   - value: Runs for every value.
    /// - Returns: The signal with the side effects.
    public func on(
        event: (@Sendable (Event) -> Void)? = nil,
        failed: (@Sendable (Error) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil
    ) -> Signal<Value, Error> {
        Signal { output, lifetime in
            if let disposed { lifetime.observeEnded(disposed) }
            lifetime += observe { received in
                event?(received)
                switch received {
                case .value(let element): value?(element)
                case .failed(let error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
                if received.isTerminating { terminated?() }
                output.send(received)
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs run the given side effects around the start and as each event passes.
    ///
    /// For each run, on the starting thread: `starting` runs before this producer's work starts, and
    /// `started` right after the work's start closure has returned (a producer that finishes
    /// synchronously has then already delivered everything). The other closures behave as in
    /// `Signal.on(event:failed:completed:interrupted:terminated:disposed:value:)`; `disposed` runs when the
    /// run's lifetime ends, whether it terminated or was disposed.
    ///
    /// - Parameters:
    ///   - starting: Runs before each run's work starts.
    ///   - started: Runs after each run's work has started.
    ///   - event: Runs for every event.
    ///   - failed: Runs with the error of a failure.
    ///   - completed: Runs on completion.
    ///   - interrupted: Runs on interruption, including disposal of the run.
    ///   - terminated: Runs after the kind's closure for any terminal event.
    ///   - disposed: Runs once when the run's lifetime ends.
    ///   - value: Runs for every value.
    /// - Returns: The producer with the side effects.
    public func on(
        starting: (@Sendable () -> Void)? = nil,
        started: (@Sendable () -> Void)? = nil,
        event: (@Sendable (Signal<Value, Error>.Event) -> Void)? = nil,
        failed: (@Sendable (Error) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil
    ) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            starting?()
            defer { started?() }
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                let effects = signal.on(
                    event: event,
                    failed: failed,
                    completed: completed,
                    interrupted: interrupted,
                    terminated: terminated,
                    disposed: disposed,
                    value: value
                )
                lifetime += effects.observe(observer)
            }
        }
    }
}
