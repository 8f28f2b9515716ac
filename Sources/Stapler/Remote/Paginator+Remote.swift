import Reactive

extension Paginator
where Item: StoreRow, Key == StorePosition, Query == Void, Metadata == StoreListMetadata, Failure == StoreError {
    /// Creates a paginator over the collection `collection` of `store` that `remote` fills from the
    /// network: the list shows the store, and the mediator writes into it.
    ///
    /// ```swift
    /// let mediator = PageSourceMediator(source: .offset { offset, size, _ in api.posts(offset, size) },
    ///                                   collection: "feed", positionedBy: \.serverPosition)
    /// let feed = Paginator(store: store, collection: "feed", pageSize: 20, remote: mediator, scheduler: .main)
    /// ```
    ///
    /// Everything ``init(store:collection:pageSize:options:openingAt:maxCoalescingLatency:scheduler:observed:)``
    /// guarantees holds, and (each a clause of <doc:TheRemoteMediator>, which names the tests):
    /// - **The store first.** `remote`'s ``RemoteMediator/initialize(_:)`` runs here, once. The list opens
    ///   from the store's rows at once; with ``RemoteInitialization/launchInitialRefresh`` it then
    ///   refreshes from the network (an empty collection waits for that refresh, `loading`, never `empty`).
    /// - **One request per direction.** The list asks the mediator for an edge only when it asks for the
    ///   page beyond what the store holds there; one load per direction runs, a refresh cancels the
    ///   edges', and edges wait for the launch refresh to succeed. An edge the server ended
    ///   (`.success(endReached: true)`) stays ended until a refresh; a failed one waits for ``retry()-1n6nq``.
    /// - **Combined states wait for the store.** ``loadStates`` stays `loading` in a direction until the
    ///   mediator returned and the list shows the store at or after its commits, in the same update as
    ///   the rows. A failed refresh keeps the rows shown. A cancelled load is no failure.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - collection: The name of a collection of the store's schema (another name traps, naming
    ///     `collection`).
    ///   - pageSize: How many rows a page holds; at least 1.
    ///   - remote: The mediator that fills the collection.
    ///   - isCancellation: Recognises the app's own cancellation errors (a `CancellationError` always is).
    ///   - options: As for a list over a store without a mediator.
    ///   - opening: Where the list opens.
    ///   - maxCoalescingLatency: The longest a change waits before the window is read again.
    ///   - scheduler: Where changes are coalesced and windows are read.
    ///   - observed: Whether the list is shown from the start.
    public convenience init(
        store: some LocalStore<Item>,
        collection: String,
        pageSize: Int,
        remote: some RemoteMediator<Item>,
        isCancellation: @escaping @Sendable (any Error) -> Bool = { _ in false },
        options: PagingOptions<Item, StorePosition> = PagingOptions(),
        openingAt opening: StorePosition = .first,
        maxCoalescingLatency: Duration = .milliseconds(16),
        scheduler: any TimeScheduler,
        observed: Bool = true
    ) {
        let described = Self.described(collection, in: store, by: "Paginator(store:collection:remote:)")
        let link = RemoteLink(
            mediator: remote, store: store, collection: collection, pageSize: pageSize, isCancellation: isCancellation)
        self.init(
            store: store, collection: described, pageSize: pageSize, remote: link, options: options,
            openingAt: opening, latency: maxCoalescingLatency, scheduler: scheduler, observed: observed)
    }

    /// The state of the list's mediator in each direction (all idle for a list without one).
    ///
    /// The list's ``loadStates`` combine it with the store's reads; this is the detail, read now.
    public var remoteLoadStates: RemoteLoadStates {
        remoteLink?.states ?? .initial
    }

    /// The list's link to its mediator.
    var remoteLink: RemoteLink<Item>? {
        (follower as? StoreListFollower<Item>)?.remote
    }

    /// Starts the launch refresh that waits for the opening read, once.
    func launchRemoteRefreshIfDue() {
        if remoteLink?.takeLaunch() == true { refresh() }
    }
}
