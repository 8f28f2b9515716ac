/// Why awaiting the result of a producer's run (`first()`, `last()`, `single()`, `collect()`,
/// `wait()`) did not return one.
public enum AwaitError<Error: Swift.Error>: Swift.Error {
    /// The run failed with this error.
    case failed(Error)
    /// The run completed without the value asked for: it sent no value at all.
    case noValue
    /// `single()` only: the run sent a second value (the run was then disposed).
    case multipleValues
    /// The run was interrupted before it produced the result: it was disposed from elsewhere, or
    /// its input observer was released.
    case interrupted
    /// The awaiting task was cancelled before the result arrived; the run was disposed.
    case cancelled
}

extension AwaitError: Equatable where Error: Equatable {}

extension AwaitError: Hashable where Error: Hashable {}
