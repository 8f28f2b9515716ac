/// Where a load goes: the first page of a generation, or one more page at the top or the bottom.
public enum PageDirection: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The first page of a generation (a refresh, a query change, the opening of the list at a key).
    case refresh
    /// A page before the top page: older messages of a chat, earlier rows of a list opened mid-way.
    case prepend
    /// A page after the bottom page: the next page of an infinite scroll.
    case append

    /// The direction's name.
    public var description: String {
        switch self {
        case .refresh: "refresh"
        case .prepend: "prepend"
        case .append: "append"
        }
    }
}

/// The load state of one direction of a paginator.
///
/// At most one load runs per direction; a prepend and an append may run together; a refresh supersedes
/// both.
public enum LoadState<Failure: Error>: Sendable {
    /// Nothing is loading in this direction. `endReached` says that this edge of the list was reached
    /// (always `false` for the refresh direction).
    case idle(endReached: Bool)
    /// A page of this direction is loading.
    case loading
    /// The latest page of this direction failed; `retry()` requests it again with the same key.
    case failed(PagingError<Failure>)

    /// Whether a load of this direction is in flight.
    @inlinable
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether this edge of the list was reached (and nothing is loading or failed).
    @inlinable
    public var isEndReached: Bool {
        if case .idle(true) = self { return true }
        return false
    }

    /// The error of a failed load.
    @inlinable
    public var error: PagingError<Failure>? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Whether both states are the same case, with the same end flag, and neither carries an error.
    @inlinable
    func isSameWithoutError(as other: LoadState) -> Bool {
        switch (self, other) {
        case (.idle(let left), .idle(let right)): left == right
        case (.loading, .loading): true
        default: false
        }
    }
}

extension LoadState: Equatable where Failure: Equatable {}

extension LoadState: CustomStringConvertible {
    /// `idle`, `idle(end)`, `loading` or `failed(error)`.
    public var description: String {
        switch self {
        case .idle(let end): end ? "idle(end)" : "idle"
        case .loading: "loading"
        case .failed(let error): "failed(\(error))"
        }
    }
}

/// The load state of each direction of a paginator, published together with its items.
///
/// ```swift
/// paginator.loadStates.producer.startWithValues { states in
///     topSpinner.isHidden = !states.prepend.isLoading
///     footer.show(states.append)
///     refreshControl.isRefreshing = states.refresh.isLoading
/// }
/// ```
public struct LoadStates<Failure: Error>: Sendable {
    /// The first page of a generation: `loading` during a refresh, `failed` when it failed (the rows of
    /// the generation shown before stay, and both edges keep paging them).
    public var refresh: LoadState<Failure>
    /// Pages before the top page.
    public var prepend: LoadState<Failure>
    /// Pages after the bottom page.
    public var append: LoadState<Failure>

    /// Creates load states.
    ///
    /// - Parameters:
    ///   - refresh: The state of the refresh direction.
    ///   - prepend: The state of the top edge.
    ///   - append: The state of the bottom edge.
    @inlinable
    public init(refresh: LoadState<Failure>, prepend: LoadState<Failure>, append: LoadState<Failure>) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }

    /// The states of a paginator that has done nothing yet: every direction idle, no end reached.
    @inlinable
    public static var initial: LoadStates {
        LoadStates(
            refresh: .idle(endReached: false), prepend: .idle(endReached: false), append: .idle(endReached: false))
    }

    /// The state of `direction`.
    ///
    /// - Parameter direction: A direction.
    @inlinable
    public subscript(direction: PageDirection) -> LoadState<Failure> {
        switch direction {
        case .refresh: refresh
        case .prepend: prepend
        case .append: append
        }
    }

    /// Whether any direction is loading.
    @inlinable
    public var isLoading: Bool {
        refresh.isLoading || prepend.isLoading || append.isLoading
    }

    /// Whether both are the same in every direction, ignoring errors' payloads (an error is always new).
    @inlinable
    func isSameWithoutError(as other: LoadStates) -> Bool {
        refresh.isSameWithoutError(as: other.refresh) && prepend.isSameWithoutError(as: other.prepend)
            && append.isSameWithoutError(as: other.append)
    }
}

extension LoadStates: Equatable where Failure: Equatable {}

extension LoadStates: CustomStringConvertible {
    /// The three states, for logs.
    public var description: String {
        "refresh: \(refresh), prepend: \(prepend), append: \(append)"
    }
}
