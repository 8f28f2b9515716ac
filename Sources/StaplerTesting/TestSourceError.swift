/// Why a fake source failed a request: a failure the test injected, or a request the fake cannot answer.
///
/// Two errors are equal when they name the same cause, so a test can compare the error a paginator
/// reports with the one it expects.
public enum TestSourceError: Error, Sendable, Hashable, CustomStringConvertible, TestKitErrorCarrying {
    /// A failure injected with ``TestFailure``, or by ``TestPageSource/fail(_:with:)``: the key of the
    /// failed request, by its description, and the request's position in the log (1 for the first).
    case injected(key: String, request: Int)
    /// The request broke the test kit's rules: it asked for a key the fake never produced
    /// (``TestKitError/unknownKey(_:)``).
    case rejected(TestKitError)

    /// The kit error this failure carries, if it is one.
    ///
    /// It is ``TestKitError/unknownKey(_:)`` for a key the fake never produced; the kit's waits rethrow it.
    public var testKitError: TestKitError? {
        if case .rejected(let error) = self { return error }
        return nil
    }

    /// The failure, in words a test failure can print.
    public var description: String {
        switch self {
        case .injected(let key, let request): "injected failure of request \(request) (key \(key))"
        case .rejected(let error): error.description
        }
    }
}
