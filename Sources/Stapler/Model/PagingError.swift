/// Why a page could not be applied: the source's own failure, or a response the paginator rejects.
///
/// Every bad response becomes one of these instead of a trap, and nothing already loaded is lost: the
/// paginator keeps its items and moves to `errorRefreshing` (first page) or `errorLoadingMore`.
public enum PagingError<Failure: Error>: Error {
    /// The source failed with this error.
    case source(Failure)
    /// The request completed without sending a page.
    case noPage
    /// The page's next key was already used in this generation: following it would loop.
    case repeatedKey
    /// The server reported a negative total.
    case invalidTotal(Int)
    /// The load did not answer within the paginator's `loadTimeout`; its late answer is never applied.
    case timedOut
    /// The server named a next key, but `pages` pages in a row added no new item: the list stopped there
    /// (``StopReason/noProgress(pages:)``) instead of asking on forever. It is what a list shows as
    /// unavailable for that stop; loads never fail with it.
    case noProgress(pages: Int)

    /// Whether requesting the same page again can help.
    ///
    /// A source's failure, a timeout and a request that completed without a page (an empty answer) may
    /// pass; a key that loops and a negative total are answers the server gives again: retrying them
    /// loops, and so does asking again a server that added nothing page after page (``noProgress(pages:)``).
    /// A list shows a retryable error with a Retry button and the others as unavailable
    /// (``ListFooter/unavailable(_:)``).
    @inlinable
    public var isRetryable: Bool {
        switch self {
        case .source, .timedOut, .noPage: true
        case .repeatedKey, .invalidTotal, .noProgress: false
        }
    }

    /// The source's error, if this is a ``source(_:)`` error.
    @inlinable
    public var sourceError: Failure? {
        if case .source(let error) = self { return error }
        return nil
    }
}

extension PagingError: Equatable where Failure: Equatable {}

extension PagingError: CustomStringConvertible {
    /// A short description for logs.
    public var description: String {
        switch self {
        case .source(let error): "source error: \(error)"
        case .noPage: "the request completed without a page"
        case .repeatedKey: "the next key repeats a key already used"
        case .invalidTotal(let total): "invalid total \(total)"
        case .timedOut: "the load timed out"
        case .noProgress(let pages): "\(pages) pages in a row added nothing new"
        }
    }
}
