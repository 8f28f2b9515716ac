import Reactive

/// Keeps a paginator over a store in step with the store: it reads the pages the paginator asks for,
/// checks the version of every read against the commits that touched the collection, and reads the
/// shown window again, coalesced, when the collection changes.
///
/// Lock order: the engine's state lock, then this follower's `state` lock, then the store's. The
/// follower never calls the engine or the store while it holds `state`.
final class StoreListFollower<Row: StoreRow>: Sendable {
    typealias Engine = PagingEngine<Row, StorePosition, Void, StoreListMetadata, StoreError>

    struct State {
        /// The paginator's engine, once it is made.
        var engine: WeakReference<Engine>?
        /// The version of the latest commit that touched the collection.
        var touched: UInt64 = 0
        /// The version of the latest commit whose notification arrived.
        var seen: UInt64 = 0
        /// The version the shown rows belong to (`nil` before the first page).
        var shown: UInt64?
        /// Whether a window reload runs.
        var reloading = false
        /// Whether the collection changed while a reload ran (or a reload waits for a notification).
        var dirty = false
        /// Whether the app shows the list (see ``Paginator/setObserved(_:)``).
        var observed: Bool
        /// Whether the collection changed while the list was not observed.
        var stale = false
        /// The edge loads whose page was read before a commit that touched the collection: the next
        /// window reload covers their extent and ends them.
        var discarded: Set<UInt64> = []
    }

    let reads: StoreListReads<Row>
    /// The list's mediator, when the network fills the collection (see ``RemoteLink``).
    let remote: RemoteLink<Row>?
    // Guarded by its own lock (`LockedState`).
    let state: LockedState<State>
    /// Takes one value per change of the collection; its debounced output reloads the window.
    let pokes: Signal<Void, Never>.Observer
    /// The subscription to the store's changes and the coalescing timer.
    let subscriptions = CompositeDisposable()

    /// A follower of `collection` in `store`, subscribed to its changes at once (before any read).
    init(
        store: any LocalStore<Row>, collection: StoreCollection<Row>, pageSize: Int, latency: Duration,
        scheduler: any TimeScheduler, observed: Bool, remote: RemoteLink<Row>? = nil
    ) {
        self.remote = remote
        var reads = StoreListReads(
            store: store, collection: collection, localizedOrder: store.schema.localizedOrder, pageSize: pageSize)
        if let remote {
            reads.opensEdge = { @Sendable edge in remote.isOpen(edge) }
        }
        self.reads = reads
        state = LockedState(State(observed: observed))
        let (signal, input) = Signal<Void, Never>.pipe()
        pokes = input
        let name = collection.name
        subscriptions.add(
            store.changes.observeValues { [weak self] change in
                self?.storeChanged(change, touches: change.collections.contains(name))
            })
        state.withLock { $0.seen = store.dataVersion }
        subscriptions.add(
            signal.debounce(latency, maxWait: latency, on: scheduler).observeValues { [weak self] in
                self?.reload()
            })
        remote?.onFinish { [weak self] direction, outcome, held in
            self?.remoteFinished(direction, outcome, held: held)
        }
    }

    deinit {
        subscriptions.dispose()
    }

    var engine: Engine? { state.withLock { $0.engine?.object } }

    /// Follows for `engine`, the engine of the paginator this follower reads for.
    func attach(_ engine: Engine) {
        state.withLock { $0.engine = WeakReference(engine) }
    }

    // MARK: Changes

    /// Records a commit; one that touched the collection reloads the window, coalesced.
    func storeChanged(_ change: StoreChange, touches: Bool) {
        let pokes = state.withLock { state -> Bool in
            state.seen = max(state.seen, change.version)
            let waiting = state.dirty && !state.reloading
            guard touches else { return waiting }
            state.touched = max(state.touched, change.version)
            if state.reloading {
                state.dirty = true
                return false
            }
            return true
        }
        if pokes { self.pokes.send(value: ()) }
    }

    /// Whether rows read at `version` may join the shown rows, decided under the engine's lock; when
    /// they may, the shown rows now belong to `version`.
    ///
    /// They may if no commit that touched the collection happened between the shown rows' version and
    /// `version`, or after `version`: of the commits whose notification has not arrived yet, any might
    /// have. A refresh (`replacing`) replaces the shown rows, so only commits after `version` count.
    func admits(_ version: UInt64, replacing: Bool) -> Bool {
        let current = reads.store.dataVersion
        return state.withLock { state in
            let low = replacing ? version : min(state.shown ?? version, version)
            guard state.touched <= low, current <= max(low, state.seen) else {
                state.dirty = true
                return false
            }
            state.shown = replacing ? version : max(state.shown ?? version, version)
            return true
        }
    }

    // MARK: Pages

    /// Reads the page of `request` and hands it to the engine, as the answer of the load `ticket`.
    ///
    /// A first page read before a commit that touched the collection is read again at once; an edge
    /// page is discarded, and a window reload that covers its extent ends its load instead.
    ///
    /// With a mediator, a refresh's first page waits for the mediator's refresh (see
    /// ``RemoteLink/takesRefresh(ticket:key:)``); its further pages, for a refresh of several, read the store,
    /// and an edge read that finds nothing while the server may have more waits for the mediator's load of
    /// that edge.
    func load(_ request: PageRequest<StorePosition, Void>, ticket: UInt64) {
        if request.direction == .refresh {
            // A refresh runs alone: the edge loads that waited for a window reload were superseded.
            state.withLock { $0.discarded.removeAll() }
        }
        if request.direction == .refresh, request.pageIndex == 0, let remote,
            remote.takesRefresh(ticket: ticket, key: request.key)
        {
            return
        }
        answer(request.direction, at: request.key, ticket: ticket)
    }

    /// Reads the page at `key` and hands it to the engine as the answer of the load `ticket`.
    func answer(_ direction: PageDirection, at key: StorePosition, ticket: UInt64) {
        guard let engine else { return }
        let replacing = direction == .refresh
        while true {
            let page: StoreListPage<Row>
            do {
                page = try reads.page(at: key)
            } catch {
                return engine.fail(ticket, with: .source(StoreError(error)))
            }
            if !replacing, page.items.isEmpty, let remote, remote.isOpen(direction == .prepend ? .before : .after) {
                return remote.hold(direction, ticket: ticket, key: key)
            }
            let version = page.metadata.version
            if engine.receive(page, from: ticket, if: { admits(version, replacing: replacing) }) { return }
            guard !replacing else { continue }
            state.withLock { _ = $0.discarded.insert(ticket) }
            return reload(evenIfUnobserved: true)
        }
    }

    // MARK: Window

    /// Reads the shown window again at one version and replaces the shown rows with it, unless a reload
    /// runs (then that one runs once more after it) or the list is not observed (then it is stale; a
    /// reload that ends an edge load runs `evenIfUnobserved`).
    func reload(evenIfUnobserved: Bool = false) {
        let starts = state.withLock { state -> Bool in
            guard state.observed || evenIfUnobserved else {
                state.stale = true
                return false
            }
            guard !state.reloading else {
                state.dirty = true
                return false
            }
            state.reloading = true
            return true
        }
        guard starts, let engine else { return }
        while true {
            state.withLock { $0.dirty = false }
            let again = reloadOnce(engine)
            var coalesces = false
            let more = state.withLock { state -> Bool in
                // The list changed shape, or an edge load waits for a reload to end it: read again at once.
                if again || (state.dirty && !state.discarded.isEmpty) { return true }
                // Commits during the read: one more reload, coalesced like any change, so that a steady
                // stream of commits reads at most once per latency, however quick the reads are. A reload
                // that waits for a notification still in flight leaves it to poke.
                coalesces = state.dirty && state.seen >= reads.store.dataVersion
                state.reloading = false
                return false
            }
            if coalesces { pokes.send(value: ()) }
            guard more else { return }
        }
    }

    /// One window reload; returns whether it must run again at once (the list changed shape meanwhile).
    private func reloadOnce(_ engine: Engine) -> Bool {
        let shape = engine.shownListShape()
        guard shape.isShown else { return false }
        let discarded = state.withLock { $0.discarded }
        let ending = shape.edgeLoads.filter { discarded.contains($0.ticket) }
        let items = Array(shape.items)
        let top = shape.topEnded ? nil : items.first.flatMap(reads.cursor(of:))
        let bottom = shape.bottomEnded ? nil : items.last.flatMap(reads.cursor(of:))
        let window: (pages: [(key: StorePosition, page: StoreListPage<Row>)], version: UInt64)
        do {
            window = try reads.window(
                top: top, bottom: bottom,
                extendingUp: ending.contains { $0.direction == .prepend } ? reads.pageSize : 0,
                extendingDown: ending.contains { $0.direction == .append } ? reads.pageSize : 0)
        } catch {
            // The rows shown stay, and the window is read again after the coalescing latency.
            pokes.send(value: ())
            return false
        }
        // A list with pages a memory bound dropped takes the rows even when they are equal: replacing the
        // shown pages is what forgets the dropped pages' keys, which may no longer be where their rows are.
        let unchanged = ending.isEmpty && !shape.hasDroppedPages && sameRows(items, window.pages, shape: shape)
        let applied = engine.replaceShownPages(
            unchanged ? nil : window.pages, ending: ending.map(\.ticket), over: shape.token,
            if: { admits(window.version, replacing: true) })
        if applied {
            state.withLock { state in
                for load in ending { state.discarded.remove(load.ticket) }
            }
        }
        return !applied && state.withLock { $0.dirty } == false
    }

    /// Whether `pages` hold the rows shown, equal by identity and content, with the same ends.
    private func sameRows(
        _ items: [Row], _ pages: [(key: StorePosition, page: StoreListPage<Row>)],
        shape: ShownListShape<Row, StorePosition>
    ) -> Bool {
        let rows = pages.flatMap(\.page.items)
        guard rows.count == items.count else { return false }
        let topEnded = pages.first?.page.previousKey == nil
        let bottomEnded = pages.last?.page.nextKey == nil
        guard topEnded == shape.topEnded, bottomEnded == shape.bottomEnded else { return false }
        let equal = ItemsDifference.contentComparison(of: Row.self)
        return zip(rows, items).allSatisfy { $0.storeID == $1.storeID && equal($0, $1) }
    }

    // MARK: Observation

    /// Marks the list observed or not; a list observed again after a change it missed reloads once.
    func setObserved(_ observed: Bool) {
        let reloads = state.withLock { state -> Bool in
            state.observed = observed
            guard observed, state.stale else { return false }
            state.stale = false
            return true
        }
        if reloads { reload() }
    }
}

extension StoreError {
    /// `error` as a store error: itself, or an unexpected failure naming it.
    init(_ error: any Error) {
        if let error = error as? StoreError {
            self = error
        } else {
            self = .unexpected(code: -1, message: "\(error)")
        }
    }
}
