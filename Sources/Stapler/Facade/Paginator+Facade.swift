import Reactive

// What the `Stapler` facade asks of its paginator beyond the public interface: the facade talks to the
// paginator only, never to the engine under it.

extension Paginator {
    /// The total the latest page reported, 0 until one does (the facade's `total`).
    @inlinable
    var totalOrZero: Property<Int> {
        engine.property(.totalOrZero, { $0.total ?? 0 }, skipping: ==)
    }

    /// Loads the next page, or requests a failed next page again; nothing while a refresh's failure
    /// stands (the facade's rule: after a failed refresh, only a refresh pages again).
    ///
    /// The engine's machine decides, under its lock, as it does for the `async` form.
    ///
    /// - Complexity: O(1) when it does nothing.
    @inlinable
    func loadNextOrRetryingFailedPage() {
        guard engine.gate.allowsLoadNextOrRetry else { return }
        _ = engine.loadEdge(.append, retryingFailedPage: true, afterFailedRefresh: false, waiter: nil)
    }

    /// Decides as ``loadNextOrRetryingFailedPage()`` does, by the engine's state at that moment (never
    /// by a published state, which may lag behind it), and returns when the load it started is over,
    /// or at once with the reason it started nothing.
    ///
    /// The awaiting call is registered in the transition that starts the load, as the paginator's
    /// `async` edge loads are.
    @inlinable
    func loadNextOrRetryingFailedPage() async -> LoadOutcome<Failure> {
        await engine.awaitOutcome { resolve in
            engine.loadEdge(.append, retryingFailedPage: true, afterFailedRefresh: false, waiter: resolve)
        }
    }

    /// The first-page loads of this paginator, as a value that works on after the paginator is released
    /// (an action of the facade may outlive it).
    @inlinable
    var firstPageLoads: FirstPageLoads<Item, Key, Query, Metadata, Failure> {
        FirstPageLoads(engine: engine)
    }
}

/// Starts and cancels the first-page loads of a paginator's engine, for the facade's actions.
@usableFromInline
struct FirstPageLoads<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Sendable
{
    @usableFromInline let engine: PagingEngine<Item, Key, Query, Metadata, Failure>

    @inlinable
    init(engine: PagingEngine<Item, Key, Query, Metadata, Failure>) {
        self.engine = engine
    }

    /// Starts a new generation; `outcome` hears how its first page ends.
    ///
    /// - Returns: The new generation, for ``cancel(_:)``.
    @inlinable
    func refresh(reporting outcome: @escaping @Sendable (FirstPageOutcome<Failure>) -> Void) -> UInt64 {
        engine.refresh(query: nil, waiter: outcome)
    }

    /// Cancels the first-page load of `generation`, if it is still the one in flight.
    @inlinable
    func cancel(_ generation: UInt64) {
        engine.send { $0.receiveCancel(generation: generation) }
    }
}
