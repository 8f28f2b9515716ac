extension SignalProducer {
    /// A producer whose every run performs `operation` in a new `Task`, then sends its result and
    /// completes, or fails with its error.
    ///
    /// Disposing the run cancels the task; the operation should check for cancellation (most `async`
    /// APIs do). Once the run is disposed its observer receives nothing more, whatever the task does
    /// after the cancellation (it may still return a value or throw).
    ///
    /// ```swift
    /// let user = SignalProducer { () async throws(APIError) in try await api.user(id) }
    /// let disposable = user.startWithValues { print($0) }
    /// disposable.dispose()  // cancels the request's task
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of each run's task; `nil` for the priority of the starting task.
    ///   - operation: The work of one run; it runs once per start, on no particular actor.
    public init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws(Error) -> Value
    ) {
        self.init(Self.performing(priority: priority, operation))
    }

    /// The start handler of a run that performs `operation` in a task.
    private static func performing(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws(Error) -> Value
    ) -> @Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void {
        { observer, lifetime in
            let task = Task(priority: priority) {
                do throws(Error) {
                    let value = try await operation()
                    observer.send(value: value)
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose every run performs `operation` in a new `Task`, then sends its result and
    /// completes; see `init(priority:operation:)`.
    ///
    /// ```swift
    /// let thumbnail = SignalProducer { await renderer.thumbnail(for: photo) }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of each run's task; `nil` for the priority of the starting task.
    ///   - operation: The work of one run; disposing the run cancels its task.
    public init(priority: TaskPriority? = nil, operation: @escaping @Sendable () async -> Value) {
        self.init(Self.performing(priority: priority, operation))
    }
}
