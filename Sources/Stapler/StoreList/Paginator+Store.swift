import Reactive

extension Paginator
where Item: StoreRow, Key == StorePosition, Query == Void, Metadata == StoreListMetadata, Failure == StoreError {
    /// Creates a paginator over the collection `collection` of `store`: a list that pages by keyset and
    /// follows the store.
    ///
    /// ```swift
    /// let feed = Paginator(store: store, collection: "feed", pageSize: 20, scheduler: QueueScheduler.main)
    /// feed.updates.observeValues { update in tableView.apply(update) }
    /// ```
    ///
    /// Guarantees (each a clause of <doc:TheLocalStore>, which names the tests that prove it):
    /// - **Keyset pages, fixed boundaries.** Every page is read after the last row shown or before the
    ///   first one, by sort tuple, never by offset; a page's keys are the sort tuples of its first and last
    ///   rows, so a write anywhere never shifts what the next page reads.
    /// - **The window follows the store.** The list shows the collection between its first and last rows
    ///   shown (from the collection's start once the top ended, to its end once the bottom ended). When a
    ///   commit touches the collection, every row of that window is read again in one read, at one data
    ///   version, and published as one update: the keyed difference of the rows shown and the rows read
    ///   (inserts, removals, moves and updates by identity). A row inserted above the first row shown
    ///   appears only once the top ended; otherwise the next page above reaches it. A read whose rows equal
    ///   those shown publishes nothing.
    /// - **Coalesced.** Changes reload the window after at most `maxCoalescingLatency` on `scheduler`,
    ///   however often they come; one reload runs at a time, and changes during it cause exactly one more,
    ///   itself coalesced, so a burst of writes lasting T reads at most ⌈T ÷ latency⌉ + 1 times.
    ///   A commit that does not touch the collection reads nothing.
    /// - **One version at a time.** Every read records its data version. A page joins the list only if no
    ///   commit that touched the collection happened after it was read or between it and the rows shown;
    ///   otherwise it is discarded unpublished and one window reload, covering the page's extent too,
    ///   replaces it. A first page read before such a commit is read again before it is shown.
    /// - **Subscribed before the first read.** The list listens to the store before it reads anything,
    ///   so no commit is missed, even on an empty store.
    /// - **Reads run on the thread that asks**: the first page within this initializer (so with rows in
    ///   the store, the first snapshot holds them before it returns, for a `MemoryStore` and a SQLite store
    ///   alike), an edge page within ``loadNextPage()-7uu83``, ``loadPreviousPage()-4eb6m`` or
    ///   ``preload(index:)``, and window reloads on `scheduler`.
    /// - **Errors keep the rows.** A read that fails is the failure of its direction (``StoreError``);
    ///   a window reload that fails keeps the rows shown and reads again after `maxCoalescingLatency`.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - collection: The name of a collection of the store's schema (another name is a programmer
    ///     error that traps, naming `collection`).
    ///   - pageSize: How many rows a page holds; at least 1.
    ///   - options: Everything else: a memory bound (`maxPages`), placeholders (the store's count is the
    ///     total), a delivery scheduler, the prefetch distance. The page size is `pageSize`, and rows are
    ///     recognised by their ``StoreRow/storeID``.
    ///   - opening: Where the list opens (and ``refresh()`` reads again): the collection's first rows by
    ///     default, ``StorePosition/last`` for a chat that opens at its newest message.
    ///   - maxCoalescingLatency: The longest a change waits before the window is read again.
    ///   - scheduler: Where changes are coalesced and windows are read.
    ///   - observed: Whether the list is shown from the start (see ``setObserved(_:)``); an unobserved list
    ///     reads nothing, not even its first page, until it is observed.
    public convenience init(
        store: some LocalStore<Item>,
        collection: String,
        pageSize: Int,
        options: PagingOptions<Item, StorePosition> = PagingOptions(),
        openingAt opening: StorePosition = .first,
        maxCoalescingLatency: Duration = .milliseconds(16),
        scheduler: any TimeScheduler,
        observed: Bool = true
    ) {
        self.init(
            store: store, collection: Self.described(collection, in: store, by: "Paginator(store:collection:)"),
            pageSize: pageSize, remote: nil, options: options, openingAt: opening, latency: maxCoalescingLatency,
            scheduler: scheduler, observed: observed)
    }

    /// The collection named `name` in `store`'s schema; another name traps, naming `collection` and the
    /// initializer `caller`.
    static func described(_ name: String, in store: some LocalStore<Item>, by caller: String) -> StoreCollection<Item> {
        // `fatalError` in a guard keeps its message in optimised builds, where `precondition`'s is dropped.
        guard let described = store.schema.collections.first(where: { $0.name == name }) else {
            fatalError("\(caller): collection \"\(name)\" is not in the store's schema")
        }
        return described
    }

    /// A list over `collection` of `store`, filled from the network by `remote` if there is one: what both
    /// public initializers make.
    convenience init(
        store: some LocalStore<Item>, collection: StoreCollection<Item>, pageSize: Int, remote: RemoteLink<Item>?,
        options: PagingOptions<Item, StorePosition>, openingAt opening: StorePosition, latency: Duration,
        scheduler: any TimeScheduler, observed: Bool
    ) {
        let follower = StoreListFollower(
            store: store, collection: collection, pageSize: pageSize, latency: latency, scheduler: scheduler,
            observed: observed, remote: remote)
        let source = PageSource<Item, StorePosition, Void, StoreListMetadata, StoreError>(firstKey: .first) {
            request, sink in
            follower.load(request, ticket: sink.ticket)
            return AnyDisposable()
        }
        var options = options
        options.pageSize = pageSize
        options.deduplication = .by { $0.storeID }
        self.init(source: source, query: (), initialKey: opening, options: options, follower: follower)
        follower.attach(engine)
        if observed {
            refresh()
            launchRemoteRefreshIfDue()
        }
    }

    /// Tells the list whether the app shows it.
    ///
    /// An unobserved list does no reads for changes: a change marks it stale, and it reads its window
    /// once when it is observed again (its first page, if it never read one). Pages the app asks for
    /// still load.
    ///
    /// - Parameter observed: Whether the list is on screen.
    public func setObserved(_ observed: Bool) {
        guard let follower = follower as? StoreListFollower<Item> else { return }
        var opens = false
        if observed, case .uninitialized = state.value { opens = true }
        follower.setObserved(observed)
        if opens {
            refresh()
            launchRemoteRefreshIfDue()
        }
    }
}
