/// The state of one direction of a list's remote side (its mediator).
public enum RemoteLoadState: Hashable, Sendable, CustomStringConvertible {
    /// Nothing loads; `endReached` says that the server has nothing further that way (until a refresh).
    case idle(endReached: Bool)
    /// The mediator loads this direction.
    case loading
    /// An edge waits for the first refresh to succeed: a request made now runs after it.
    case blocked
    /// The direction's latest load failed; ``Paginator/retry()-1n6nq`` asks again.
    case failed(StoreError)

    /// `idle`, `idle(end)`, `loading`, `blocked` or `failed(error)`.
    public var description: String {
        switch self {
        case .idle(let end): end ? "idle(end)" : "idle"
        case .loading: "loading"
        case .blocked: "blocked"
        case .failed(let error): "failed(\(error))"
        }
    }
}

/// The remote side's state in each direction; the list's ``Paginator/loadStates`` combine it with the
/// store's reads.
public struct RemoteLoadStates: Hashable, Sendable, CustomStringConvertible {
    /// The mediator's refresh.
    public var refresh: RemoteLoadState
    /// The mediator's loads before the first row.
    public var prepend: RemoteLoadState
    /// The mediator's loads after the last row.
    public var append: RemoteLoadState

    /// States of the three directions.
    public init(refresh: RemoteLoadState, prepend: RemoteLoadState, append: RemoteLoadState) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }

    /// Every direction idle, no end reached.
    public static let initial = RemoteLoadStates(
        refresh: .idle(endReached: false), prepend: .idle(endReached: false), append: .idle(endReached: false))

    /// The state of `direction`.
    public subscript(direction: PageDirection) -> RemoteLoadState {
        switch direction {
        case .refresh: refresh
        case .prepend: prepend
        case .append: append
        }
    }

    /// The three states, for logs.
    public var description: String {
        "refresh: \(refresh), prepend: \(prepend), append: \(append)"
    }
}
