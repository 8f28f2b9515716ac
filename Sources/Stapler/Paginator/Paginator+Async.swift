// The `async` forms of the paginator's calls: each returns exactly one outcome when what it started is
// over (applied, failed, superseded or cancelled), or at once when it started nothing.
//
// A call returns only after the publication its outcome reports has been delivered and the delivering
// thread has let go of delivery (contract clause 7.11): right after it, the properties show what the call
// did, and the caller's next call (an `insert`, an edit) is delivered before it returns.
//
// Cancelling the awaiting task returns `.cancelled` at once but does not cancel the load: a SwiftUI
// `.refreshable` or `.task` is cancelled whenever its view goes away or redraws, and the load may be
// shared (another call, the facade's action, the list itself waits for it). Its result still lands.
// Paging 3 ties loads to the collector's scope and TanStack Query cancels only when every observer
// left; Stapler's loads belong to the paginator, so only `cancel()`, a refresh or the paginator's
// release end them.

extension Paginator {
    /// Starts a new generation and returns when its first page is applied (or every page, for a refresh
    /// of several pages), failed, or was superseded by a newer refresh.
    ///
    /// ```swift
    /// List(rows) { row in RowView(row) }
    ///     .refreshable { await paginator.refresh() }
    /// ```
    ///
    /// - Parameters:
    ///   - mode: How the list reloads; see ``RefreshMode``.
    ///   - query: The query of the new generation; the current one when `nil`.
    /// - Returns: ``LoadOutcome/loaded``, ``LoadOutcome/failed(_:)``, ``LoadOutcome/superseded``,
    ///   ``LoadOutcome/cancelled``, or ``LoadOutcome/ignored(_:)`` for a refresh around a row outside the
    ///   list.
    @inlinable
    @discardableResult
    public func refresh(_ mode: RefreshMode<Key> = .restart, query: Query? = nil) async -> LoadOutcome<Failure> {
        await engine.awaitOutcome { resolve in
            engine.startRefresh(mode, query: query) { resolve(LoadOutcome($0)) }
        }
    }

    /// Starts a new generation with `query` and returns when its first page is applied or failed, or
    /// when a newer refresh superseded it.
    ///
    /// - Parameter query: The query of the new generation.
    /// - Returns: The load's outcome.
    @inlinable
    @discardableResult
    public func refresh(query: Query) async -> LoadOutcome<Failure> {
        await refresh(.restart, query: query)
    }

    /// Loads the next page and returns when it is applied, failed, superseded or cancelled; at once with
    /// ``LoadOutcome/ignored(_:)`` when the bottom cannot load (a load there is already running, the end,
    /// a failure waiting for retry, no first page, a refresh).
    ///
    /// - Returns: The load's outcome.
    @inlinable
    @discardableResult
    public func loadNextPage() async -> LoadOutcome<Failure> {
        if let reason = engine.gate.reason(.append) { return .ignored(reason) }
        return await engine.awaitOutcome { resolve in engine.loadEdge(.append, waiter: resolve) }
    }

    /// Loads the page before the top page, like ``loadNextPage()-7uu83`` at the other end.
    ///
    /// - Returns: The load's outcome.
    @inlinable
    @discardableResult
    public func loadPreviousPage() async -> LoadOutcome<Failure> {
        if let reason = engine.gate.reason(.prepend) { return .ignored(reason) }
        return await engine.awaitOutcome { resolve in engine.loadEdge(.prepend, waiter: resolve) }
    }

    /// Requests again what failed and returns when it is over: a failed refresh alone, or every failed
    /// edge (the worst of their outcomes); at once with ``LoadOutcome/ignored(_:)`` when nothing failed.
    ///
    /// - Returns: The outcome of what was retried.
    @inlinable
    @discardableResult
    public func retry() async -> LoadOutcome<Failure> {
        await engine.awaitOutcome { resolve in engine.retry(waiter: resolve) }
    }
}

extension Paginator {
    /// Returns when the paginator waits for nothing: no load in flight in any direction, no automatic
    /// retry scheduled, and every publication delivered to the observers of its properties and signals
    /// and of the lists transformed from it (on its delivery scheduler, when it has one).
    ///
    /// It reads the engine's own state, never the load states: a call that starts work (`loadNextPage()`,
    /// `preload(index:)`, `refresh()`, `retry()`) records it before it returns, so `settled()` called
    /// right after waits for that work and its publication, even while every load state still reads idle
    /// because the change has not been delivered yet. Work the paginator starts by itself is waited for
    /// too: an automatic retry and its backoff, an empty page that asks for the next, a page that a
    /// transformed list filtered to nothing, each started before the previous step is delivered.
    ///
    /// ```swift
    /// paginator.preload(index: 49)
    /// await paginator.settled()
    /// #expect(paginator.items.value.count == 100)
    /// ```
    ///
    /// It returns at once, without suspending, when nothing is pending (a paginator that never started, or
    /// a call that was ignored once the work before it is delivered), and at once when the calling task
    /// is cancelled. It has no timeout of its own: a load
    /// nobody answers is waited for until it is answered. Tests wait with StaplerTesting's
    /// `settled(timeout:)`, which fails naming what is still pending, and which advances a
    /// `TestScheduler` through the pending work.
    nonisolated(nonsending) public func settled() async {
        await engine.settled()
    }
}

extension Paginator: QuiescenceProbe {
    nonisolated(nonsending) package func progressed() async {
        await engine.progressed()
    }

    package func pendingWork() -> PendingEngineWork {
        engine.pendingWork()
    }

    package func failedLoads() -> [FailedEngineLoad] {
        engine.failedLoads()
    }

    /// How many transitions the paginator's state machine has run: what tests count to know what an input
    /// costs.
    package var machineTransitions: UInt64 {
        engine.state.withLock { $0.transitions }
    }
}
