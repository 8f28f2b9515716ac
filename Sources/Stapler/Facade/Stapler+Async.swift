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
    /// It decides by the same rule as ``loadNextPageIfNeeded()``, in the paginator's state machine under
    /// its lock, so calls of either form from any threads start at most one load at a time. The
    /// decision is made on the paginator's state at that moment, never on ``Paginator/state`` (which,
    /// with a delivery scheduler, lags until the scheduler delivers).
    ///
    /// - Returns: The outcome of the load it started, or ``LoadOutcome/ignored(_:)`` at once with the
    ///   reason when it starts nothing (``IgnoredReason/awaitingRetry`` while a refresh's failure stands).
    @inlinable
    @discardableResult
    public func loadNextPage() async -> LoadOutcome<ResponseError> {
        await paginator.loadNextOrRetryingFailedPage()
    }
}
