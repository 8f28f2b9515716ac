/// The error a remote mediator's load failed with, as a ``StoreError/remote(_:)`` carries it.
///
/// Two failures are equal when their errors have the same type and description.
public struct RemoteFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The mediator's error.
    public let error: any Error

    /// A failure with `error`.
    public init(_ error: any Error) {
        self.error = error
    }

    /// The error's type and description.
    public var description: String { "\(type(of: error)): \(error)" }

    /// Whether both errors have the same type and description.
    public static func == (left: RemoteFailure, right: RemoteFailure) -> Bool {
        left.description == right.description
    }

    /// Hashes the type and description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}
