/// How a paginator call ended: what a synchronous call started, or what an awaited load came to.
///
/// A synchronous call (``Paginator/loadNextPage()-7uu83``, ``Paginator/refresh()``...) returns at once with
/// ``started`` or ``ignored(_:)``. Its `async` form returns exactly one outcome when what it started is
/// over: ``loaded``, ``failed(_:)``, ``superseded`` or ``cancelled``, or at once ``ignored(_:)``.
public enum LoadOutcome<Failure: Error>: Sendable {
    /// A load started (synchronous calls only).
    case started
    /// Nothing started, for this reason.
    case ignored(IgnoredReason)
    /// The page (or, for a refresh of several pages, every page) was applied and published.
    case loaded
    /// The load failed; nothing loaded was lost.
    case failed(PagingError<Failure>)
    /// A refresh, a query change or a newer load replaced it before it was applied.
    case superseded
    /// ``Paginator/cancel()``, the paginator's release, the source's interruption, or the cancellation of
    /// the awaiting task ended the wait; the load itself is cancelled only in the first three cases.
    case cancelled
}

extension LoadOutcome: Equatable where Failure: Equatable {}

/// Why a call started nothing.
public enum IgnoredReason: Sendable, Hashable, CaseIterable {
    /// That direction is already loading (the call does not queue another load, and does not join it).
    case alreadyLoading
    /// That end of the list was reached.
    case endReached
    /// That direction's last page failed: call `retry()`.
    case awaitingRetry
    /// No first page was loaded yet: there is no list to page.
    case notLoaded
    /// A refresh is loading; edges wait for it.
    case refreshing
    /// Nothing failed, so there is nothing to retry; or nothing is loading, so there is nothing to cancel.
    case nothingToDo
}
