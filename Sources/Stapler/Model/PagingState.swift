/// Where a paginator is in its life, as an explicit state.
///
/// The states and the allowed moves between them are those of AnotherPagination's state machine
/// (see <doc:StateMachine>):
///
/// | from | to |
/// |---|---|
/// | `uninitialized` | `refreshing` |
/// | `refreshing` | `refreshing`, `errorRefreshing`, `noData`, `data` (and `uninitialized` on `cancel()` before any page) |
/// | `errorRefreshing` | `refreshing` |
/// | `noData` | `refreshing` |
/// | `data` | `refreshing`, `loadingMore` |
/// | `loadingMore` | `errorLoadingMore`, `data`, `refreshing` |
/// | `errorLoadingMore` | `loadingMore`, `refreshing` |
///
/// Whether the end of the list was reached is reported beside the state
/// (``PagingSnapshot/isEndReached``), since `data` with more pages and `data` at the end allow different
/// moves.
public enum PagingState<Failure: Error>: Sendable {
    /// Nothing was requested yet.
    case uninitialized
    /// The first page is loading (the items of an earlier generation, if any, are still shown).
    case refreshing
    /// The first page failed. Items of an earlier generation are kept.
    case errorRefreshing(PagingError<Failure>)
    /// The first page came back empty.
    case noData
    /// Items are loaded and nothing is loading.
    case data
    /// A later page is loading.
    case loadingMore
    /// A later page failed; every loaded item is kept and `retry()` requests that page again.
    case errorLoadingMore(PagingError<Failure>)

    /// The state's name without its payload, for logs and tables.
    @inlinable
    public var name: String {
        switch self {
        case .uninitialized: "uninitialized"
        case .refreshing: "refreshing"
        case .errorRefreshing: "errorRefreshing"
        case .noData: "noData"
        case .data: "data"
        case .loadingMore: "loadingMore"
        case .errorLoadingMore: "errorLoadingMore"
        }
    }

    /// The error of `errorRefreshing` or `errorLoadingMore`.
    @inlinable
    public var error: PagingError<Failure>? {
        switch self {
        case .errorRefreshing(let error), .errorLoadingMore(let error): error
        default: nil
        }
    }

    /// Whether a load is in flight (`refreshing` or `loadingMore`).
    @inlinable
    public var isLoading: Bool {
        switch self {
        case .refreshing, .loadingMore: true
        default: false
        }
    }

    /// Whether the move from `self` to `next` is one of the allowed transitions above.
    ///
    /// - Parameter next: The state to move to.
    /// - Returns: `true` if the state machine may make that move.
    @inlinable
    public func canMove(to next: PagingState) -> Bool {
        switch (self, next) {
        case (.uninitialized, .refreshing): true
        case (.refreshing, .refreshing), (.refreshing, .errorRefreshing), (.refreshing, .noData),
            (.refreshing, .data), (.refreshing, .uninitialized):
            true
        case (.errorRefreshing, .refreshing), (.noData, .refreshing): true
        case (.data, .refreshing), (.data, .loadingMore): true
        case (.loadingMore, .errorLoadingMore), (.loadingMore, .data), (.loadingMore, .refreshing): true
        case (.errorLoadingMore, .loadingMore), (.errorLoadingMore, .refreshing): true
        default: false
        }
    }
}

extension PagingState {
    /// The seven-state view of `loadStates`: `refreshing` while a refresh loads; `errorRefreshing` while
    /// a refresh's failure stands, whatever the edges of the rows it kept do (the refresh failure comes
    /// first, and `errorRefreshing` moves only to `refreshing`); `uninitialized` before a list;
    /// `loadingMore` while an edge loads; `errorLoadingMore` while an edge's failure waits for `retry()`
    /// (the bottom's first); then `noData` or `data`.
    ///
    /// - Parameters:
    ///   - loadStates: The load state of each direction.
    ///   - hasList: Whether a first page was applied to the list shown.
    ///   - listWasEmpty: Whether that first page was empty.
    @inlinable
    init(_ loadStates: LoadStates<Failure>, hasList: Bool, listWasEmpty: Bool) {
        switch loadStates.refresh {
        case .loading:
            self = .refreshing
        case .failed(let error):
            self = .errorRefreshing(error)
        case .idle:
            if !hasList {
                self = .uninitialized
            } else if loadStates.append.isLoading || loadStates.prepend.isLoading {
                self = .loadingMore
            } else if let error = loadStates.append.error ?? loadStates.prepend.error {
                self = .errorLoadingMore(error)
            } else {
                self = listWasEmpty ? .noData : .data
            }
        }
    }
}

extension PagingState {
    /// Whether both states are the same case and neither carries an error (what the `state` property
    /// skips: two consecutive error states are always distinct notifications).
    @inlinable
    func isSameWithoutError(as other: PagingState) -> Bool {
        switch (self, other) {
        case (.uninitialized, .uninitialized), (.refreshing, .refreshing), (.noData, .noData), (.data, .data),
            (.loadingMore, .loadingMore):
            true
        default: false
        }
    }
}

extension PagingState: Equatable where Failure: Equatable {}

extension PagingState: CustomStringConvertible {
    /// The state's name, with its error if it has one.
    public var description: String {
        if let error { return "\(name)(\(error))" }
        return name
    }
}
