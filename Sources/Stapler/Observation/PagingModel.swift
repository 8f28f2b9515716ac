#if canImport(Observation)
    import Observation
    import Reactive

    /// A paginator as an `@Observable` model of the main actor, for SwiftUI.
    ///
    /// Every property changes on the main actor, in one turn per snapshot of the paginator, whatever
    /// thread the paginator delivers on: the model hops there itself. Snapshots that arrive faster than
    /// the main actor runs are coalesced (the model skips to the newest), so its properties are never
    /// torn from each other and, once the paginator is quiet, they equal its last snapshot. A property is
    /// assigned only when its value changes, by the paginator's own rule for it (a view that reads only
    /// `total` is not invalidated by a page that leaves the total as it was).
    ///
    /// ```swift
    /// struct MessagesView: View {
    ///     @State var model = PagingModel(Paginator(source: .cursor(load: api.messages), pageSize: 30))
    ///
    ///     var body: some View {
    ///         List {
    ///             ForEach(Array(model.items.enumerated()), id: \.offset) { row, message in
    ///                 MessageRow(message).onAppear { model.preload(index: row) }
    ///             }
    ///             if case .failed = model.loadStates.append {
    ///                 Button("Retry") { Task { await model.retry() } }
    ///             }
    ///         }
    ///         .refreshable { await model.refresh() }
    ///         .task { await model.refresh() }
    ///     }
    /// }
    /// ```
    ///
    /// ``lastUpdate`` says how ``items`` changed in the model's latest turn and which row a list keeps in
    /// place (a refresh around a row, a page prepended), so a view keeps its scroll position.
    ///
    /// The model holds its paginator; the paginator does not hold the model. Releasing the model
    /// releases the paginator (unless you keep it), which disposes its loads in flight.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    @Observable
    public final class PagingModel<
        Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error
    > {
        /// The loaded items.
        public private(set) var items: PagedItems<Item>
        /// The explicit state.
        public private(set) var state: PagingState<Failure>
        /// The load state of each direction.
        public private(set) var loadStates: LoadStates<Failure>
        /// What a list screen shows: placeholders, content, footer.
        public private(set) var presentation: ListPresentation<Failure>
        /// Whether the bottom of the list was reached.
        public private(set) var isEndReached: Bool
        /// The total the latest page reported, if the page model reports one.
        public private(set) var total: Int?
        /// The metadata of the latest applied page.
        public private(set) var metadata: Metadata?
        /// The optimistic edits whose mutations have not settled, in the order they started; see
        /// ``Paginator/pendingEdits``.
        public private(set) var pendingEdits: [PendingEdit<Item>]
        /// How many snapshots of the paginator the model applied (coalesced ones are skipped).
        public private(set) var snapshotsApplied = 0
        /// How ``items`` changed in the latest turn that changed them, with the row a list keeps in place;
        /// `nil` until the items first change.
        ///
        /// It is assigned on the main actor in the same turn as ``items``, so a view that reacts to it
        /// (`onChange(of: model.lastUpdate?.id)`, scrolling to the ``ModelUpdate/anchor``'s row) does so
        /// in the same transaction as the rows it describes, with no frame drawn between them; an
        /// asynchronous sequence would be read in a later turn, after the list had drawn the new rows at
        /// the old offset. When the model coalesced several snapshots, the update describes the change
        /// from the rows it showed before to the rows it shows now (see ``ModelUpdate``).
        public private(set) var lastUpdate: ModelUpdate?

        /// The paginator under the model.
        @ObservationIgnored public let paginator: Paginator<Item, Key, Query, Metadata, Failure>
        @ObservationIgnored private let inbox = ModelInbox<Posted>()
        @ObservationIgnored private let observation = SerialDisposable()
        /// Where the snapshot the model shows came from: what the indices the app passes refer to.
        @ObservationIgnored var shown: ShownSnapshot
        /// The snapshot the model's properties show: each changes only when the next one does not repeat
        /// it by the paginator's rule for that property.
        @ObservationIgnored private var applied: PagingSnapshot<Item, Metadata, Failure>

        /// The newest snapshot delivered, its publication's serial, and whether it or a snapshot it
        /// replaced applied a page.
        typealias Posted = (
            snapshot: PagingSnapshot<Item, Metadata, Failure>, serial: UInt64, appliesPage: Bool,
            pending: [PendingEdit<Item>]
        )

        /// Creates the model of `paginator`, showing its current snapshot at once.
        ///
        /// - Parameter paginator: The paginator; it may deliver on any thread or scheduler.
        public init(_ paginator: Paginator<Item, Key, Query, Metadata, Failure>) {
            self.paginator = paginator
            let current = paginator.engine.publication.value.current
            let (snapshot, serial) = (current.contents.snapshot, current.serial)
            shown = ShownSnapshot(snapshot, serial: serial)
            applied = snapshot
            items = snapshot.items
            state = snapshot.state
            loadStates = snapshot.loadStates
            presentation = ListPresentation(snapshot)
            isEndReached = snapshot.isEndReached
            total = snapshot.total
            metadata = snapshot.metadata
            pendingEdits = current.contents.overlay.pending
            let inbox = inbox
            let engine = paginator.engine
            // The published value's own signal: every publication, with its serial and its items change.
            observation.inner = engine.publication.signal.observeValues { [weak self] change in
                guard !change.isDerivedOnly else { return }
                let publication = change.current
                let (snapshot, serial, appliesPage) = (
                    publication.contents.snapshot, publication.serial, publication.contents.appliesPage
                )
                let step = publication.contents.itemsChange.map {
                    RowsStep(change: $0, anchor: publication.contents.anchor, previousCount: change.previousItems.count)
                }
                let pending = publication.contents.overlay.pending
                let posted = inbox.post(step) { (snapshot, serial, appliesPage || $0?.appliesPage == true, pending) }
                guard posted else { return }
                Task { @MainActor in self?.drain() }
            }
        }

        deinit {
            observation.dispose()
        }

        /// Applies the newest snapshot that arrived, in one turn, assigning only the properties it changes
        /// (by the paginator's skip rules), so a view that reads an unchanged one is not invalidated.
        private func drain() {
            guard let taken = inbox.take() else { return }
            let (snapshot, serial, appliesPage, pending) = taken.value
            shown = ShownSnapshot(snapshot, serial: serial)
            let last = applied
            applied = snapshot
            if !snapshot.shows(sameItemsAs: last) { items = snapshot.items }
            if let update = ModelUpdate(id: (lastUpdate?.id ?? 0) + 1, composing: taken.steps) { lastUpdate = update }
            if !snapshot.shows(sameStateAs: last) { state = snapshot.state }
            if !snapshot.shows(sameLoadStatesAs: last) { loadStates = snapshot.loadStates }
            if !snapshot.shows(samePresentationAs: last) { presentation = ListPresentation(snapshot) }
            if snapshot.isEndReached != last.isEndReached { isEndReached = snapshot.isEndReached }
            if snapshot.total != last.total { total = snapshot.total }
            if appliesPage { metadata = snapshot.metadata }
            if pending != pendingEdits { pendingEdits = pending }
            snapshotsApplied += 1
        }

        // MARK: Actions
        //
        // Each awaited call returns with the model showing what it did: the paginator resumes the call
        // once the publication it reports has been delivered (and so posted to the model), and the call
        // applies it before returning, whether or not the hop the model scheduled for it has run.

        /// Starts a new generation and returns when it is over, the model showing its result;
        /// see ``Paginator/refresh(_:query:)-7wvhq``.
        ///
        /// - Parameters:
        ///   - mode: How the list reloads.
        ///   - query: The query of the new generation; the current one when `nil`.
        /// - Returns: The load's outcome.
        @discardableResult
        public func refresh(_ mode: RefreshMode<Key> = .restart, query: Query? = nil) async -> LoadOutcome<Failure> {
            showing(await paginator.refresh(mode, query: query))
        }

        /// Loads the next page and returns when it is over, the model showing its result;
        /// see ``Paginator/loadNextPage()-4783a``.
        ///
        /// - Returns: The load's outcome.
        @discardableResult
        public func loadNextPage() async -> LoadOutcome<Failure> {
            showing(await paginator.loadNextPage())
        }

        /// Loads the previous page and returns when it is over, the model showing its result;
        /// see ``Paginator/loadPreviousPage()-326xd``.
        ///
        /// - Returns: The load's outcome.
        @discardableResult
        public func loadPreviousPage() async -> LoadOutcome<Failure> {
            showing(await paginator.loadPreviousPage())
        }

        /// Requests again what failed and returns when it is over, the model showing its result;
        /// see ``Paginator/retry()-9xre6``.
        ///
        /// - Returns: The outcome of what was retried.
        @discardableResult
        public func retry() async -> LoadOutcome<Failure> {
            showing(await paginator.retry())
        }

        /// Loads a page at each end that row `index` of ``items`` is near; see ``Paginator/preload(index:)``.
        ///
        /// The index is read against ``items``, which may lag the paginator's delivery by a main-actor hop:
        /// it is moved by the rows prepended since, as the paginator moves indices of its observers'
        /// snapshot.
        ///
        /// - Parameter index: The index of a row of ``items`` being displayed.
        public func preload(index: Int) {
            paginator.engine.preload(
                index: index, distance: paginator.prefetchDistance,
                seen: (shown.leadingCount, shown.listSerial))
        }

        /// Returns when the paginator is settled (see ``Paginator/settled()``) and this model shows its
        /// latest snapshot, or when the calling task is cancelled.
        ///
        /// The model applies the latest snapshot itself, on the main actor, before returning (the hop it
        /// scheduled for it then finds nothing to apply).
        public func settled() async {
            await paginator.settled()
            applyDelivered()
        }

        /// Applies the latest snapshot delivered to the model, if it has not applied it yet: once the
        /// paginator is settled, every publication has been delivered, so the model then shows the last.
        package func applyDelivered() {
            drain()
        }

        /// Returns `outcome` once the model shows what it reports: the paginator resumed the awaited call
        /// after delivering it, so the model applies it before its caller reads on.
        private func showing(_ outcome: LoadOutcome<Failure>) -> LoadOutcome<Failure> {
            applyDelivered()
            return outcome
        }

        /// Disposes the loads in flight; see ``Paginator/cancel()``.
        public func cancel() {
            paginator.cancel()
        }
    }

    /// What a model's indices refer to: the serial of the publication its snapshot came from, and that
    /// snapshot's items and place in its list.
    struct ShownSnapshot {
        let serial: UInt64
        let leadingCount: Int
        let listSerial: UInt64

        init<Item, Metadata, Failure>(_ snapshot: PagingSnapshot<Item, Metadata, Failure>, serial: UInt64) {
            self.serial = serial
            leadingCount = snapshot.leadingCount
            listSerial = snapshot.listSerial
        }
    }

#endif
