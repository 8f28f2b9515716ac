import Reactive

/// A paginator over any page model: one state machine, observable state, and the actions of a list.
///
/// ```swift
/// let paginator = Paginator(source: .cursor { cursor, size, query in api.messages(after: cursor, limit: size) }, pageSize: 20)
/// paginator.items.producer.startWithValues { render($0) }
/// paginator.refresh()
/// // for each displayed row:
/// paginator.preload(index: row)
/// ```
///
/// The list has two ends: ``loadNextPage()-7uu83`` adds pages at the bottom, ``loadPreviousPage()-4eb6m`` at the top
/// (a chat opened at its newest message pages older ones), and ``preload(index:)`` pages whichever edge a
/// displayed row is near. Each direction has its own load state (``loadStates``).
///
/// Guarantees (each is a clause of <doc:StateMachine>, which names the tests that prove it):
/// - **One load per direction.** A request for a page at an edge while that edge loads, after that
///   edge's end, while a refresh loads, or before the first page has loaded does nothing, in O(1). The
///   top and the bottom may load together; a refresh disposes both.
/// - **Refresh wins.** ``refresh()`` and ``refresh(query:)-2seyi`` dispose the load in flight and start the
///   first page again; a response of a superseded load is never applied, whenever and on whatever
///   thread it arrives (A, then B, then A again included).
/// - **Errors are split.** A first-page error moves to `errorRefreshing`; a later page's error moves to
///   `errorLoadingMore`, keeps every item and reaches ``errorsAfterFirstPage``. ``retry()-1n6nq`` requests the
///   failed page again with the same key; nothing else does, unless a ``PagingPolicy`` asks for automatic
///   retries (bounded, with backoff).
/// - **Bad responses never trap** (see ``PagingError``), and nothing loaded is lost.
/// - **Consistent, ordered notifications.** The paginator's notifications form one ordered stream:
///   while an observer is notified of a change, every property holds exactly that change's values (an
///   observer of `state` reads the matching `items`), whatever other threads do; change events arrive
///   with the snapshot they describe; an action hears its first page's outcome after that page's
///   notifications. An observer may call any method of the paginator: the call takes effect at once
///   (the next call sees it) and its notifications queue behind the current ones, so even a synchronous
///   source paging from inside an observer keeps a bounded stack. A call from another thread during a
///   delivery enqueues its notifications and returns; the delivering thread delivers them (so an
///   observer must not block waiting for another thread's paginator change: observe it instead).
/// - **Thread safety.** Every method may be called from any thread; sources may answer on any thread.
/// - **Lifetime.** Releasing the paginator disposes the load in flight at once, even while notifications
///   wait on its delivery scheduler (those are then dropped).
public final class Paginator<
    Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error
>:
    Sendable
{
    @usableFromInline let engine: PagingEngine<Item, Key, Query, Metadata, Failure>
    @usableFromInline let prefetchDistance: Int
    /// What keeps a list over a local store in step with the store (`nil` for other sources).
    let follower: (any AnyObject & Sendable)?

    // Every property and signal below is made on first use (the same object every time after that), holding
    // what the others hold at that moment: a publication stages only the values someone asked for.

    /// Everything the paginator publishes, as one value.
    @inlinable
    public var snapshot: Property<PagingSnapshot<Item, Metadata, Failure>> {
        engine.property(.snapshot) { $0 }
    }

    /// The explicit state.
    @inlinable
    public var state: Property<PagingState<Failure>> {
        engine.property(.state, { $0.state }, skippingSnapshots: { $0.shows(sameStateAs: $1) })
    }

    /// The load state of each direction: refresh, prepend (the top) and append (the bottom).
    ///
    /// It changes together with ``items`` and ``state``: an observer of one reads the matching others.
    @inlinable
    public var loadStates: Property<LoadStates<Failure>> {
        engine.property(.loadStates, { $0.loadStates }, skippingSnapshots: { $0.shows(sameLoadStatesAs: $1) })
    }

    /// The loaded items, as a snapshot collection that shares storage with earlier snapshots.
    @inlinable
    public var items: Property<PagedItems<Item>> {
        engine.itemsProperty
    }

    /// How many pages of the current generation were applied.
    @inlinable
    public var pages: Property<Int> {
        engine.property(.pages, { $0.pages }, skipping: ==)
    }

    /// The total the latest page reported, if the model reports one: `nil` until a page does.
    ///
    /// The ``Stapler/Stapler`` facade's `total` is `0` then, as the original library's was; here "no total
    /// yet" and "an empty list" are told apart.
    @inlinable
    public var total: Property<Int?> {
        engine.property(.total, { $0.total }, skipping: ==)
    }

    /// Whether the end of the list was reached.
    @inlinable
    public var isEndReached: Property<Bool> {
        engine.property(.isEndReached, { $0.isEndReached }, skipping: ==)
    }

    /// The query of the current generation: the one the latest ``refresh(query:)-2seyi`` gave (even while its
    /// first page loads), or the one a ``cancel()`` of that refresh restored.
    @inlinable
    public var query: Property<Query> {
        engine.queryProperty
    }

    /// The metadata of the latest applied page; it changes each time a page is applied, and only then.
    @inlinable
    public var metadata: Property<Metadata?> {
        engine.property(.metadata, { $0.metadata }, changingWhen: { $0.contents.appliesPage })
    }

    /// The original Stapler's next-page indicator: `false` until the second page's load starts, then
    /// `true` while pages are left; see ``PagingSnapshot/showsNextPageIndicator``.
    ///
    /// For a list's footer, read ``presentation``: its ``ListFooter/loadingRow`` says that pages are left
    /// (whether or not one loads yet), and ``ListContent/isLoadingMore`` that a page loads now.
    @inlinable
    public var showsNextPageIndicator: Property<Bool> {
        engine.property(.showsNextPageIndicator, { $0.showsNextPageIndicator }, skipping: ==)
    }

    /// What a list screen shows now; see ``ListPresentation`` and ``ListPresenter``.
    ///
    /// It changes together with every other property, and only when the screen changes.
    @inlinable
    public var presentation: Property<ListPresentation<Failure>> {
        engine.property(
            .presentation, { ListPresentation($0) }, skippingSnapshots: { $0.shows(samePresentationAs: $1) })
    }

    /// Each change of the items with the snapshots before and after it.
    @inlinable
    public var updates: Signal<ItemsUpdate<Item, Metadata>, Never> {
        engine.signal(.updates) { $0.itemsUpdate }
    }

    /// The error of every later page that failed (first-page errors are in ``state``).
    @inlinable
    public var errorsAfterFirstPage: Signal<PagingError<Failure>, Never> {
        engine.signal(.errorsAfterFirstPage) { $0.current.contents.laterPageError }
    }

    /// Creates a paginator over `source`, opening at `initialKey` with `query`, paging as `options` say.
    ///
    /// The paginator starts `uninitialized`, with no request: call ``refresh()`` (or
    /// ``preload(index:)`` once rows show) to load the first page.
    ///
    /// ```swift
    /// let search = Paginator(
    ///     source: .cursor(load: api.search), query: "",
    ///     options: PagingOptions(pageSize: 20, deduplication: .byID, queryCache: .last(3)))
    /// ```
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - query: The query of the first generation. A source whose load closure takes a query needs it:
    ///     without `query:`, Swift picks the initializer for sources with no query, and its error then
    ///     appears inside your load closure (a `Void` where you use your query), not here.
    ///   - initialKey: The key of the page the list opens at (a chat's newest page, a timeline's
    ///     middle); the source's first key when `nil`. ``refresh()`` reloads it.
    ///   - options: The page size and everything else that can be chosen; see ``PagingOptions``. They are
    ///     checked here, once: a programmer error (a page size below 1, a negative prefetch distance, a
    ///     bound too small, a jump over a cursor source, a query cache over a query that is not
    ///     `Hashable`) traps with a message naming the option.
    public convenience init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        query: Query,
        initialKey: Key? = nil,
        options: PagingOptions<Item, Key>
    ) {
        self.init(source: source, query: query, initialKey: initialKey, options: options, follower: nil)
    }

    /// Creates a paginator over `source`, as ``init(source:query:initialKey:options:)`` does, that keeps
    /// `follower` as long as it lives.
    init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        query: Query,
        initialKey: Key?,
        options: PagingOptions<Item, Key>,
        follower: (any AnyObject & Sendable)?
    ) {
        self.follower = follower
        let resolved = ResolvedOptions(options, source: source)
        prefetchDistance = resolved.prefetchDistance
        engine = PagingEngine(
            source: source, pageSize: resolved.pageSize, query: query, initialKey: initialKey,
            identities: resolved.identities, deliveryScheduler: resolved.deliveryScheduler, policy: resolved.policy,
            bound: resolved.bound, queryCache: resolved.queryCache, placeholders: resolved.placeholders,
            jump: resolved.jump, initialPages: resolved.initialPages)
    }

    deinit {
        engine.close()
    }

    /// Starts a new generation with the current query.
    ///
    /// It disposes any load in flight and loads the first page. The items of the previous generation stay
    /// until the first page replaces them.
    ///
    /// - Returns: ``LoadOutcome/started``: a refresh always starts.
    @inlinable
    @discardableResult
    public func refresh() -> LoadOutcome<Failure> {
        engine.refresh(query: nil, waiter: nil)
        return .started
    }

    /// Starts a new generation with `query`; results of earlier queries are never applied.
    ///
    /// - Parameter query: The query of the new generation.
    /// - Returns: ``LoadOutcome/started``: a refresh always starts.
    @inlinable
    @discardableResult
    public func refresh(query: Query) -> LoadOutcome<Failure> {
        engine.refresh(query: query, waiter: nil)
        return .started
    }

    /// Starts a new generation in `mode`, with the current query or `query`.
    ///
    /// ```swift
    /// paginator.refresh(.open(at: newestPageKey))   // a chat opens at its newest page
    /// paginator.refresh(.reloadAll)                 // pull to refresh that keeps every loaded page
    /// paginator.refresh(.around(index: firstVisibleRow))
    /// ```
    ///
    /// - Parameters:
    ///   - mode: How the list reloads; see ``RefreshMode``.
    ///   - query: The query of the new generation; the current one when `nil`.
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` for a refresh around a row
    ///   outside the list.
    @inlinable
    @discardableResult
    public func refresh(_ mode: RefreshMode<Key>, query: Query? = nil) -> LoadOutcome<Failure> {
        engine.startRefresh(mode, query: query, waiter: nil)
    }

    /// Loads the next page at the bottom if the list has data, more pages there, and nothing loading
    /// there or refreshing.
    ///
    /// Does nothing after a failure at the bottom (call ``retry()-1n6nq``), before the first page, while the
    /// bottom loads or a refresh runs, or after the end.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` with the reason.
    /// - Complexity: O(1) when it does nothing.
    @inlinable
    @discardableResult
    public func loadNextPage() -> LoadOutcome<Failure> {
        if let reason = engine.gate.reason(.append) { return .ignored(reason) }
        return engine.loadEdge(.append, waiter: nil)
    }

    /// Loads the page before the top page, under the same rules as ``loadNextPage()-7uu83`` at the other end.
    ///
    /// Its rows arrive as ``ItemsChange/inserted(_:)`` at `0..<n`, and ``PagingSnapshot/leadingCount``
    /// grows by `n`, so a list can keep the user's position.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` with the reason.
    /// - Complexity: O(1) when it does nothing.
    @inlinable
    @discardableResult
    public func loadPreviousPage() -> LoadOutcome<Failure> {
        if let reason = engine.gate.reason(.prepend) { return .ignored(reason) }
        return engine.loadEdge(.prepend, waiter: nil)
    }

    /// Loads a page at each end that row `index` is within the prefetch distance of: the top when
    /// `index <= prefetchDistance`, the bottom when `index >= count - 1 - prefetchDistance` (a row near
    /// both ends of a short list loads both).
    ///
    /// Call it for every displayed row. The index is read against the latest snapshot delivered to
    /// observers (what a list shows) and moved down by the rows prepended since, so a list that lags
    /// behind never asks for a page it already has. Negative, out-of-range and stale indices are
    /// ignored, and it never re-requests a page that failed. Every index passed is recorded as the row
    /// last shown, which a saved list keeps (``PagingSavedState/lastShownRow``).
    ///
    /// - Parameter index: The index of a row being displayed.
    /// - Complexity: O(1) when it does nothing.
    @inlinable
    public func preload(index: Int) {
        if index >= 0 { engine.gate.recordShown(index) }
        guard engine.preloadsUnderTheLock || engine.gate.allowsPreload(index: index, distance: prefetchDistance) else {
            return
        }
        engine.preload(index: index, distance: prefetchDistance)
    }

    /// Requests again what failed, with the same keys and query.
    ///
    /// A failed refresh is requested again alone (it supersedes the edges); otherwise each edge whose
    /// page failed requests that page again. In `noData` it reloads the list, like ``refresh()``
    /// (TIPagination's "try again" on an empty list). In any other state it does nothing: a list with
    /// data never re-requests a page on its own.
    ///
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` when nothing failed.
    @inlinable
    @discardableResult
    public func retry() -> LoadOutcome<Failure> {
        engine.retry(waiter: nil)
    }

    /// Disposes the loads in flight, if any, without an error (Pageable's `cancelAllRequests()`).
    ///
    /// A cancelled edge page returns that edge to idle, and loading it again asks for the same page. A
    /// cancelled refresh undoes the refresh: the paginator returns to the state it left (`uninitialized`,
    /// `noData` or `errorRefreshing`), and a list that had data returns to `data` with the query, the keys
    /// and the ends it had, so paging it goes on where it stood. Nothing in flight is ever applied
    /// afterwards.
    ///
    /// - Returns: ``LoadOutcome/cancelled`` if a load was cancelled, else
    ///   ``LoadOutcome/ignored(_:)`` with ``IgnoredReason/nothingToDo``.
    @inlinable
    @discardableResult
    public func cancel() -> LoadOutcome<Failure> {
        var cancelled = false
        engine.send {
            let effects = $0.receiveCancel(generation: nil)
            cancelled = effects.publish
            return effects
        }
        return cancelled ? .cancelled : .ignored(.nothingToDo)
    }
}

extension Paginator where Query == Void {
    /// Creates a paginator whose source takes no query, opening at `initialKey`, paging as `options`
    /// say; see ``init(source:query:initialKey:options:)``.
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - initialKey: The key of the page the list opens at; the source's first key when `nil`.
    ///   - options: The page size and everything else that can be chosen, checked here, once.
    public convenience init(
        source: PageSource<Item, Key, Void, Metadata, Failure>,
        initialKey: Key? = nil,
        options: PagingOptions<Item, Key>
    ) {
        self.init(source: source, query: (), initialKey: initialKey, options: options)
    }
}
