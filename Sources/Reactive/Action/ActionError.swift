/// Why a run of an ``Action`` failed.
public enum ActionError<Error: Swift.Error>: Swift.Error {
    /// The action was executing or disabled when applied; nothing was started.
    case disabled
    /// The work started and failed with this error.
    case producerFailed(Error)
}

extension ActionError: Equatable where Error: Equatable {}
