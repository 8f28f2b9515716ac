extension SignalProducer {
    /// A producer that sends `value`, then completes.
    ///
    /// A run delivers straight to its observer, with no signal of its own (the value is already there:
    /// nothing else could observe the run), so it costs one allocation, its disposable. A run disposed
    /// before or while its value is delivered ends `interrupted` instead of `completed`, as any run does;
    /// once it ended, its disposable reports disposed.
    @inlinable
    public init(value: Value) {
        self.init(work: .value(value))
    }

    /// A producer that sends every element of `values` in order, then completes.
    ///
    /// A run that is interrupted part way stops sending.
    public init<Values: Sequence & Sendable>(values: Values) where Values.Element == Value {
        self.init { observer, lifetime in
            for value in values {
                guard !lifetime.hasEnded else { return }
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
    }

    /// A producer that fails with `error` at once.
    @inlinable
    public init(error: Error) {
        self.init { observer, _ in observer.send(error: error) }
    }

    /// A producer that sends the success value and completes, or fails with the failure.
    public init(result: Result<Value, Error>) {
        switch result {
        case .success(let value): self.init(value: value)
        case .failure(let error): self.init(error: error)
        }
    }

    /// A producer whose runs each get the producer that `make` returns at the time of the run.
    ///
    /// - Parameter make: Called once per run, on the starting thread.
    /// - Returns: A producer that starts a fresh product of `make` for every run.
    public static func deferred(_ make: @escaping @Sendable () -> SignalProducer) -> SignalProducer {
        SignalProducer { observer, lifetime in
            lifetime += make().start(observer)
        }
    }

    /// A producer that completes at once without a value.
    public static var empty: SignalProducer {
        SignalProducer { observer, _ in observer.sendCompleted() }
    }

    /// A producer that never sends anything; its runs end only when interrupted.
    public static var never: SignalProducer {
        SignalProducer { _, _ in }
    }
}
