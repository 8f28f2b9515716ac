#if canImport(Observation)
    import Observation
    import Reactive

    /// A transformed list (see ``Paginator/transformed(by:)``) as an `@Observable` model of the main
    /// actor, for SwiftUI: the rows a screen shows, and the calls it makes.
    ///
    /// Its properties change on the main actor, in one turn per update of the list, whatever thread the
    /// paginator delivers on: the model hops there itself (the paginator needs no `deliveringOn:`). Updates
    /// that arrive faster than the main actor runs are coalesced into one turn (the model skips to the
    /// newest rows, and ``lastUpdate`` describes the change from the rows it showed to the rows it shows);
    /// once the paginator is settled, ``items`` equal the transformed list's latest rows, never older than
    /// the paginator's latest delivered snapshot.
    ///
    /// ```swift
    /// struct FeedView: View {
    ///     @State var feed = TransformedModel(paginator, transform: feedRows)
    ///
    ///     var body: some View {
    ///         List(Array(feed.items.enumerated()), id: \.offset) { index, row in
    ///             FeedRowView(row: row, retry: { Task { await feed.retry() } })
    ///                 .onAppear { feed.preload(index: index) }
    ///         }
    ///         .refreshable { await feed.refresh() }
    ///         .task { await feed.refresh() }
    ///     }
    /// }
    /// ```
    ///
    /// The model holds its transformed list, which holds the paginator; neither holds the model. Releasing
    /// the model releases both (unless you keep them), which disposes the loads in flight.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    @Observable
    public final class TransformedModel<Output: Sendable, Failure: Error> {
        /// The transformed rows the screen shows.
        public private(set) var items: TransformedItems<Output>
        /// How ``items`` changed in the latest turn that changed them, in transformed indices.
        ///
        /// Its anchor names the row a list keeps in place (a page prepended above the first row); `nil`
        /// until the rows first change. See ``PagingModel/lastUpdate``.
        public private(set) var lastUpdate: ModelUpdate?

        /// The transformed list under the model.
        @ObservationIgnored public let list: TransformedList<Output>
        @ObservationIgnored private let calls: PaginatorCalls<Failure>
        @ObservationIgnored private let inbox = ModelInbox<Posted>()
        @ObservationIgnored private let observation = SerialDisposable()
        /// The paginator rows the shown items come from: what ``preload(index:)`` reads an index against.
        @ObservationIgnored private var shown: ShownPlace

        /// The newest rows delivered, and where the paginator's rows they come from were.
        typealias Posted = (items: TransformedItems<Output>, rows: ShownPlace)

        /// Creates the model of `paginator`'s rows transformed by `transform` (a new
        /// ``TransformedList``), showing them at once.
        ///
        /// - Parameters:
        ///   - paginator: The paginator; it may deliver on any thread or scheduler.
        ///   - transform: The steps from the paginator's items to the rows.
        public init<Item, Key, Query, Metadata>(
            _ paginator: Paginator<Item, Key, Query, Metadata, Failure>, transform: ListTransform<Item, Output>
        ) {
            let list = paginator.transformed(by: transform)
            self.list = list
            calls = PaginatorCalls(paginator)
            let published = list.state.value
            shown = ShownPlace(published)
            items = published.items
            let inbox = inbox
            // The list's published value's own signal: each update with the paginator's rows it came from.
            observation.inner = list.state.signal.observeValues { [weak self] published in
                guard let update = published.update else { return }
                let step = RowsStep(change: update.change, anchor: nil, previousCount: update.previous.count)
                guard inbox.post(step, { _ in (update.items, ShownPlace(published)) }) else { return }
                Task { @MainActor in self?.drain() }
            }
            // An update delivered between the read above and the observation is in the list's rows now:
            // post them (unless an update already posted newer ones), so the model never keeps rows older
            // than the list's.
            let latest = list.state.value
            let current: Posted = (latest.items, ShownPlace(latest))
            if inbox.post(nil, { $0 ?? current }) {
                Task { @MainActor [weak self] in self?.drain() }
            }
        }

        deinit {
            observation.dispose()
        }

        /// Applies the newest rows delivered, in one turn, with the change from the rows shown before.
        private func drain() {
            guard let taken = inbox.take() else { return }
            shown = taken.value.rows
            items = taken.value.items
            if let update = ModelUpdate(id: (lastUpdate?.id ?? 0) + 1, composing: taken.steps) { lastUpdate = update }
        }

        /// Applies the rows last delivered, if the model has not applied them yet.
        package func applyDelivered() {
            drain()
        }

        /// Returns `outcome` once the model shows what it reports: the paginator resumed the awaited call
        /// after delivering it, so the model applies it before its caller reads on.
        private func showing(_ outcome: LoadOutcome<Failure>) -> LoadOutcome<Failure> {
            applyDelivered()
            return outcome
        }

        // MARK: Calls
        //
        // Each awaited call returns with the model showing what it did: the paginator resumes it once the
        // publication it reports has been delivered to the transformed list (and so posted to the model).

        /// Starts a new generation and returns when it is over, the model showing its rows; see
        /// ``Paginator/refresh(_:query:)-7wvhq``.
        ///
        /// - Returns: The load's outcome.
        @discardableResult
        public func refresh() async -> LoadOutcome<Failure> {
            showing(await calls.refresh())
        }

        /// Loads the next page and returns when it is over, the model showing its rows; see
        /// ``Paginator/loadNextPage()-4783a``.
        ///
        /// - Returns: The load's outcome.
        @discardableResult
        public func loadNextPage() async -> LoadOutcome<Failure> {
            showing(await calls.loadNextPage())
        }

        /// Loads the previous page and returns when it is over, the model showing its rows; see
        /// ``Paginator/loadPreviousPage()-326xd``.
        ///
        /// - Returns: The load's outcome.
        @discardableResult
        public func loadPreviousPage() async -> LoadOutcome<Failure> {
            showing(await calls.loadPreviousPage())
        }

        /// Requests again what failed and returns when it is over, the model showing its rows; see
        /// ``Paginator/retry()-9xre6``.
        ///
        /// - Returns: The outcome of what was retried.
        @discardableResult
        public func retry() async -> LoadOutcome<Failure> {
            showing(await calls.retry())
        }

        /// Tells the paginator that row `index` of ``items`` is displayed, so it loads a page at each end
        /// that row is near; see ``TransformedList/preload(index:)``.
        ///
        /// The index is read against ``items`` (which may lag the paginator by a main-actor hop), mapped
        /// to the paginator's row it comes from (a separator to the row after it), and moved by the rows
        /// prepended since, as ``PagingModel/preload(index:)`` does.
        ///
        /// - Parameter index: A row of ``items`` being displayed; an index outside them does nothing.
        public func preload(index: Int) {
            guard index >= 0, index < items.count, let row = items.sourceIndex(of: index) else { return }
            calls.preload(row + shown.placeholdersBefore, shown)
        }

        /// Returns when the paginator is settled (see ``TransformedList/settled()``) and this model shows
        /// the list's latest rows, or when the calling task is cancelled.
        public func settled() async {
            await list.settled()
            applyDelivered()
        }

        /// Disposes the loads in flight; see ``Paginator/cancel()``.
        public func cancel() {
            calls.cancel()
        }
    }

    /// Where the paginator rows a transformed snapshot comes from were: the snapshot's place in its list
    /// and its placeholders above the first row.
    struct ShownPlace: Sendable {
        let leadingCount: Int
        let listSerial: UInt64
        let placeholdersBefore: Int

        /// Where the paginator's rows that `published`'s items come from were.
        init<Output>(_ published: TransformedPublication<Output>) {
            leadingCount = published.sourceLeadingCount
            listSerial = published.sourceListSerial
            placeholdersBefore = published.sourcePlaceholdersBefore
        }
    }

    /// A paginator's calls, with its item, key, query and metadata types erased.
    struct PaginatorCalls<Failure: Error>: Sendable {
        let refresh: @Sendable () async -> LoadOutcome<Failure>
        let loadNextPage: @Sendable () async -> LoadOutcome<Failure>
        let loadPreviousPage: @Sendable () async -> LoadOutcome<Failure>
        let retry: @Sendable () async -> LoadOutcome<Failure>
        let preload: @Sendable (Int, ShownPlace) -> Void
        let cancel: @Sendable () -> Void

        init<Item, Key, Query, Metadata>(_ paginator: Paginator<Item, Key, Query, Metadata, Failure>) {
            refresh = { await paginator.refresh() }
            loadNextPage = { await paginator.loadNextPage() }
            loadPreviousPage = { await paginator.loadPreviousPage() }
            retry = { await paginator.retry() }
            preload = { index, rows in
                paginator.engine.preload(
                    index: index, distance: paginator.prefetchDistance,
                    seen: (rows.leadingCount, rows.listSerial))
            }
            cancel = { paginator.cancel() }
        }
    }
#endif
