extension SignalProducer {
    /// A producer whose runs start their work on `scheduler`.
    ///
    /// `start` returns at once; the start handler runs later, in an action of `scheduler`. Disposing the
    /// run before that action has run cancels it: the work never starts and the observer receives
    /// `interrupted`. Events are delivered on whatever thread the work sends them from (combine with
    /// ``observe(on:)`` to move delivery too).
    ///
    /// ```swift
    /// let parsing = SignalProducer<Document, ParseError> { observer, _ in /* heavy */ }
    /// parsing.start(on: QueueScheduler(qos: .utility)).startWithValues { show($0) }
    /// ```
    ///
    /// - Parameter scheduler: Where to run the start handler.
    /// - Returns: A producer of the same events whose work starts on `scheduler`.
    public func start(on scheduler: some Scheduler) -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            lifetime += scheduler.schedule {
                guard !lifetime.hasEnded else { return }
                startHandler(observer, lifetime)
            }
        }
    }
}
