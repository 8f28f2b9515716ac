import Reactive

// The facade's awaitable calls, with the paginator's outcomes: for `.refreshable` and `.task`.

extension Stapler {
    /// Starts a new generation and returns when its first page is applied, failed, or was superseded.
    ///
    /// It shares the first-page slot with ``initialLoadAction`` and ``refreshAction``: a run of either
    /// supersedes it, and it supersedes theirs. Cancelling the awaiting task returns
    /// ``LoadOutcome/cancelled`` at once and leaves the load to land.
    ///
    /// ```swift
    /// List(users) { UserRow($0) }
    ///     .refreshable { await stapler.refresh() }
    /// ```
    ///
    /// - Returns: The load's outcome.
    @inlinable
    @discardableResult
    public func refresh() async -> LoadOutcome<ResponseError> {
        await paginator.refresh(.restart)
    }

    /// Loads the next page if one is needed and returns when it is over; after a later page's error it
    /// requests that same page again, and after a failed refresh it loads nothing, as
    /// ``loadNextPageIfNeeded()`` does.
    ///
    /// - Returns: The load's outcome, or ``LoadOutcome/ignored(_:)`` with the reason when nothing starts.
    @inlinable
    @discardableResult
    public func loadNextPage() async -> LoadOutcome<ResponseError> {
        switch paginator.state.value {
        case .errorLoadingMore: return await paginator.retry()
        case .errorRefreshing: return .ignored(.awaitingRetry)
        default: return await paginator.loadNextPage()
        }
    }
}
