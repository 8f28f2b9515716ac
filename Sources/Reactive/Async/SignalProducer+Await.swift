extension SignalProducer {
    /// Starts a run and returns its first value; the run is then disposed.
    ///
    /// ```swift
    /// let user = try await api.user(id).first()
    /// ```
    ///
    /// Cancelling the awaiting task disposes the run and throws ``AwaitError/cancelled``.
    ///
    /// - Returns: The first value the run sends.
    /// - Throws: ``AwaitError/noValue`` if the run completes without a value,
    ///   ``AwaitError/failed(_:)`` if it fails first, ``AwaitError/interrupted`` if it is interrupted
    ///   first, ``AwaitError/cancelled`` if the awaiting task is cancelled first.
    public func first() async throws(AwaitError<Error>) -> Value {
        try await awaitOutcome(initial: ()) { _, event in
            switch event {
            case .value(let value): .success(value)
            case .completed: .failure(.noValue)
            default: Self.failure(of: event)
            }
        }
    }

    /// Starts a run, waits for it to complete, and returns its last value.
    ///
    /// - Returns: The last value the run sent before completing.
    /// - Throws: ``AwaitError/noValue`` if the run completes without a value; otherwise as `first()`.
    public func last() async throws(AwaitError<Error>) -> Value {
        try await awaitOutcome(initial: Value?.none) { last, event in
            switch event {
            case .value(let value):
                last = value
                return nil
            case .completed:
                return last.map { .success($0) } ?? .failure(.noValue)
            default:
                return Self.failure(of: event)
            }
        }
    }

    /// Starts a run, waits for it to complete, and returns its only value.
    ///
    /// A second value disposes the run at once.
    ///
    /// - Returns: The one value the run sent before completing.
    /// - Throws: ``AwaitError/multipleValues`` on a second value, ``AwaitError/noValue`` if the run
    ///   completes without a value; otherwise as `first()`.
    public func single() async throws(AwaitError<Error>) -> Value {
        try await awaitOutcome(initial: Value?.none) { only, event in
            switch event {
            case .value(let value):
                guard only == nil else { return .failure(.multipleValues) }
                only = value
                return nil
            case .completed:
                return only.map { .success($0) } ?? .failure(.noValue)
            default:
                return Self.failure(of: event)
            }
        }
    }

    /// Starts a run, waits for it to complete, and returns every value it sent, in order.
    ///
    /// - Returns: The values, empty if the run completed without any.
    /// - Throws: ``AwaitError/failed(_:)``, ``AwaitError/interrupted`` or ``AwaitError/cancelled``
    ///   as `first()`; the values sent before are dropped.
    /// - Complexity: O(*n*) for *n* values.
    public func collect() async throws(AwaitError<Error>) -> [Value] {
        try await awaitOutcome(initial: [Value]()) { values, event in
            switch event {
            case .value(let value):
                values.append(value)
                return nil
            case .completed:
                return .success(values)
            default:
                return Self.failure(of: event)
            }
        }
    }

    /// Starts a run and waits for it to complete, ignoring its values.
    ///
    /// - Throws: ``AwaitError/failed(_:)``, ``AwaitError/interrupted`` or ``AwaitError/cancelled``
    ///   as `first()`.
    public func wait() async throws(AwaitError<Error>) {
        try await awaitOutcome(initial: ()) { _, event -> Result<Void, AwaitError<Error>>? in
            switch event {
            case .value: nil
            case .completed: .success(())
            default: Self.failure(of: event)
            }
        }
    }

    /// Runs once, folding the events into the outcome, which ends the wait.
    private func awaitOutcome<Partial, Output: Sendable>(
        initial: Partial,
        fold: @escaping @Sendable (inout Partial, Signal<Value, Error>.Event) -> Result<Output, AwaitError<Error>>?
    ) async throws(AwaitError<Error>) -> Output {
        try await RunAwaiter(initial: initial, fold: fold).outcome(of: self).get()
    }

    /// The outcome of a run that fails or is interrupted.
    private static func failure<Output>(of event: Signal<Value, Error>.Event) -> Result<Output, AwaitError<Error>> {
        switch event {
        case .failed(let error): .failure(.failed(error))
        default: .failure(.interrupted)
        }
    }
}
