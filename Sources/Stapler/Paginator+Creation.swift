import Reactive

extension Paginator {
    /// Creates a paginator.
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - pageSize: How many items to ask for per page; at least 1 (a programmer error traps, naming
    ///     `pageSize`). Required, except over a single load (`PageSource.singleLoad(load:)`), which asks
    ///     for no page size.
    ///   - query: The query of the first generation. A source whose load closure takes a query needs it:
    ///     without `query:`, Swift picks the initializer for sources with no query, and its error then
    ///     appears inside your load closure (a `Void` where you use your query), not here.
    ///   - initialKey: The key of the page the list opens at (a chat's newest page, a timeline's
    ///     middle); the source's first key when `nil`. ``refresh()`` reloads it.
    ///   - prefetchDistance: How many rows from either end ``preload(index:)`` starts a page at that end:
    ///     0 loads when the last (or first) row is displayed. At least 0 (a programmer error traps, naming
    ///     `prefetchDistance`); defaults to `pageSize / 2`.
    ///   - deduplication: When given, an item already loaded is dropped from later pages (and repeats
    ///     within a page); the next key still counts what the server sent. See ``Deduplication``.
    ///   - scheduler: When given, every notification is delivered on it, in order, and every property
    ///     takes its new value there, together with its notification: with `QueueScheduler.main`, a UI
    ///     reads and hears every change on the main queue and never sees a value ahead of its
    ///     notification. Methods may still be called from any thread. By default notifications run on
    ///     the thread that caused them (the caller's, or the thread a response arrived on).
    ///   - policy: Timeouts, the cap on pages that add nothing, and automatic retries; see
    ///     ``PagingPolicy``.
    ///   - maxPages: When given, the most pages the list keeps: after a page is applied (or a preload
    ///     moves the row shown), whole pages are dropped at the end farther from the row last passed to
    ///     ``preload(index:)``, never so close to it that its next preload would load the page again,
    ///     and never while fewer than three are loaded (so one page more may stay until the row moves
    ///     on). Scrolling back reloads a dropped page with the key it was loaded with. It must hold one page and both
    ///     prefetch windows (`maxPages * pageSize >= pageSize + 2 * prefetchDistance`): a programmer
    ///     error traps, naming `maxPages`.
    ///   - placeholders: When true, ``slots`` shows the list at full length, with a placeholder for each
    ///     row not loaded, as soon as the pages say where they sit in a list of known total (offset +
    ///     total, page number + count); ``preload(index:)`` then takes slot indices. Off by default.
    ///   - jumpThreshold: With placeholders, a ``preload(index:)`` more than this many slots from the
    ///     loaded rows loads the page of that slot directly instead of every page in between. Offset and
    ///     page-number sources only (a cursor cannot compute a page's key from a position); a programmer
    ///     error traps, naming `jumpThreshold`.
    public convenience init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int? = nil,
        query: Query,
        initialKey: Key? = nil,
        prefetchDistance: Int? = nil,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        policy: PagingPolicy = .default,
        maxPages: Int? = nil,
        placeholders: Bool = false,
        jumpThreshold: Int? = nil
    ) {
        self.init(
            source: source, pageSize: pageSize, query: query, initialKey: initialKey,
            prefetchDistance: prefetchDistance,
            deduplication: deduplication, deliveringOn: scheduler, policy: policy, maxPages: maxPages,
            placeholders: placeholders, jumpThreshold: jumpThreshold, queryCache: nil)
    }
}

extension Paginator where Query: Hashable {
    /// Creates a paginator that keeps the lists of earlier queries: going back to one shows it at once,
    /// stale, and revalidates it; see ``QueryCache``.
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - pageSize: How many items to ask for per page.
    ///   - query: The query of the first generation.
    ///   - initialKey: The key of the page the list opens at.
    ///   - prefetchDistance: How close to either end ``preload(index:)`` starts a page there.
    ///   - deduplication: Drops items already loaded when given.
    ///   - scheduler: Delivers every notification on it when given.
    ///   - policy: Timeouts, the cap on pages that add nothing, automatic retries, and the clock of the
    ///     cache's maximum age.
    ///   - maxPages: The most pages the list keeps.
    ///   - placeholders: Whether ``slots`` shows placeholders for the rows not loaded.
    ///   - jumpThreshold: How far from the loaded rows a preload loads its own page directly.
    ///   - queryCache: How many earlier queries' lists to keep, for how long, and how a list shown from
    ///     the cache reloads.
    public convenience init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int? = nil,
        query: Query,
        initialKey: Key? = nil,
        prefetchDistance: Int? = nil,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        policy: PagingPolicy = .default,
        maxPages: Int? = nil,
        placeholders: Bool = false,
        jumpThreshold: Int? = nil,
        queryCache: QueryCache<Key>
    ) {
        self.init(
            source: source, pageSize: pageSize, query: query, initialKey: initialKey,
            prefetchDistance: prefetchDistance,
            deduplication: deduplication, deliveringOn: scheduler, policy: policy, maxPages: maxPages,
            placeholders: placeholders, jumpThreshold: jumpThreshold, queryCache: (queryCache, { AnyHashable($0) }))
    }
}
