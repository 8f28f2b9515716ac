/// How an ``AsyncValues`` iterator stores the values that arrive while its consumer is busy.
///
/// A signal sends whenever its source sends; a `for await` loop takes one value at a time. The values
/// in between wait in the iterator's buffer. The default, ``unbounded``, keeps every one of them, so a
/// fast producer and a slow consumer still see every value exactly once, in order, at the cost of
/// memory that grows with the lag. The bounded policies cap that memory by dropping values, which
/// suits state (the latest value of a property) more than events.
public enum AsyncBufferingPolicy: Sendable, Hashable {
    /// Keeps every value until the consumer takes it: nothing is lost or repeated.
    case unbounded

    /// Keeps at most `limit` values, dropping the oldest buffered value to make room for a new one.
    ///
    /// With a limit of 1 the consumer always reads the latest value (the policy for UI state). With
    /// a limit of 0 a value reaches the consumer only if it is already waiting for one.
    case bufferingNewest(Int)

    /// Keeps at most `limit` values, dropping new values while the buffer is full.
    case bufferingOldest(Int)

    /// The largest number of values the buffer holds, or `nil` for no limit.
    var limit: Int? {
        switch self {
        case .unbounded: nil
        case .bufferingNewest(let limit), .bufferingOldest(let limit): limit
        }
    }
}
