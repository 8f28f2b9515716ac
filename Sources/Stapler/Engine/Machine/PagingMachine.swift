/// The pure state machine of the paging engine: a two-ended list of pages and one load phase per
/// direction.
///
/// It owns every piece of paging state (the items and each page's keys, the load of each direction,
/// the keys used, the dedup set) and changes it only through its `receive...` methods, which return the
/// effects to run: start or dispose loads, publish a new snapshot, report an error or a first-page
/// outcome. The engine calls them under its lock and runs the effects after unlocking, so the machine
/// never calls user code.
///
/// Every load has a ticket; an answer is applied only if its ticket is the one its direction's phase
/// holds, so an answer of a superseded load (after a refresh, a query change, a cancel, a retry) is
/// dropped whenever and on whatever thread it arrives, in every direction.
///
/// What is valid is spelled by the load phases: a refresh in flight means both edges are idle; an edge
/// loads only while a list is shown (``hasList``). The seven-state ``PagingState`` and the
/// ``LoadStates`` are derived from the load phases when a snapshot is published (``publish(_:)``).
///
/// The state is a few values, each a type with its own `checkInvariants()` (run after every step under
/// `STAPLER_INTERNAL_CHECKS`, with the rules between them in ``checkInvariants()``): the fixed
/// ``Configuration``; the ``ShownList`` (rows, page keys, each end's key and dropped pages, used keys,
/// identities, position), which the query cache, a blanked list and a saved list keep whole; the
/// refresh's ``LoadLane`` and the two ``EdgeState``s of ``Edges`` (phase, retries, failure serial, page
/// counters), reached by direction; the ``RefreshUndo`` held while a refresh is in flight; and the
/// plans of a refresh of several pages and of a catch-up.
@usableFromInline
struct PagingMachine<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error> {
    @usableFromInline typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
    @usableFromInline typealias Request = PageRequest<Key, Query>
    @usableFromInline typealias Load = PageLoad<Key, Query>
    @usableFromInline typealias Phase = LoadPhase<Key, Query, Failure>

    /// What the machine is set up with (page size, policy limits, bound, placeholders, jump).
    @usableFromInline let configuration: Configuration
    /// The key a restart loads: the source's first key, or the key the list was last opened at.
    @usableFromInline var openingKey: Key
    /// The query of the current generation (the latest refresh's, even while it loads or after it failed).
    @usableFromInline var query: Query
    /// What the machine publishes; ``publish(_:)`` copies the list's rows into it and brings its derived
    /// fields up to date.
    @usableFromInline var snapshot: Snapshot
    /// The list shown (or blanked), whole: what the query cache keeps and a saved list restores.
    @usableFromInline var list: ShownList
    /// The refresh's load, retries and latest failure.
    @usableFromInline var refreshLane = LoadLane()
    /// The top and bottom edges' loads and counters.
    @usableFromInline var edges = Edges()
    /// What `cancel()` of the refresh in flight goes back to; `nil` while no refresh is in flight.
    @usableFromInline var refreshUndo: RefreshUndo?
    /// A refresh of several pages in progress (``RefreshMode/reloadAll``, ``RefreshMode/around(index:minimumCount:)``).
    @usableFromInline var progress: RefreshProgress?
    /// A catch-up of an edge in progress (``PagingMachine/receiveCatchUp(at:maxPages:reason:)``).
    @usableFromInline var catchUp: CatchUp?
    /// The ticket of the latest load started.
    @usableFromInline var lastTicket: UInt64 = 0
    /// Increases with every failure; a scheduled automatic retry carries the serial of the failure it
    /// retries, and does nothing if another failure, a refresh or a cancel came since.
    @usableFromInline var failureSerial: UInt64 = 0
    /// The failure an automatic retry is scheduled for, if any.
    @usableFromInline var scheduledRetry: (direction: PageDirection, serial: UInt64)?
    /// The lists of earlier queries, when a ``QueryCache`` is on.
    @usableFromInline var queryCache: CachedLists?
    /// Whether the source computes every page's key from its position, without the page before it (offset,
    /// page number): only then may every shown page reload in parallel.
    @usableFromInline var keysArePositional = false
    /// The requests of the refresh load in flight when it asks several pages at once, with its ticket.
    @usableFromInline var refreshBatch: (ticket: UInt64, batch: PageBatch<Key, Query>)?
    /// How a first page loads several pages up front, or `nil` for one page.
    @usableFromInline var initialPages: InitialPages?

    @inlinable
    init(
        firstKey: Key, pageSize: Int, query: Query, noProgressLimit: Int? = nil, maxAutoRetries: Int = 0,
        bound: MemoryBound? = nil, placeholders: Bool = false,
        jump: (threshold: Int, key: @Sendable (_ slot: Int, _ pageSize: Int) -> Key)? = nil
    ) {
        configuration = Configuration(
            pageSize: pageSize, noProgressLimit: noProgressLimit, maxAutoRetries: maxAutoRetries, bound: bound,
            placeholders: placeholders, jump: jump)
        configuration.checkInvariants()
        openingKey = firstKey
        self.query = query
        list = ShownList(query: query)
        snapshot = .initial
    }

    /// The load in flight of any direction (the refresh's first), for tests and assertions.
    @inlinable
    var inFlight: Load? {
        refreshLane.phase.load ?? edges.bottom.lane.phase.load ?? edges.top.lane.phase.load
    }

    /// Whether a list (maybe empty) is shown and its edges can page.
    @inlinable
    var hasList: Bool { list.isShown }

    /// The lane of `direction`: its phase, retries and latest failure.
    @inlinable
    ///
    /// Each accessor names the stored property it yields, with no accessor of another value inside: a
    /// `_modify` that calls another `_modify` needs a coroutine frame larger than its caller's buffer, and
    /// the runtime allocates it on the heap, on every call (two allocations a page).
    subscript(lane direction: PageDirection) -> LoadLane {
        _read {
            switch direction {
            case .refresh: yield refreshLane
            case .prepend: yield edges.top.lane
            case .append: yield edges.bottom.lane
            }
        }
        _modify {
            switch direction {
            case .refresh: yield &refreshLane
            case .prepend: yield &edges.top.lane
            case .append: yield &edges.bottom.lane
            }
        }
    }

    /// The load phase of `direction`: idle, loading or failed.
    @inlinable
    subscript(phase direction: PageDirection) -> Phase {
        _read {
            switch direction {
            case .refresh: yield refreshLane.phase
            case .prepend: yield edges.top.lane.phase
            case .append: yield edges.bottom.lane.phase
            }
        }
        _modify {
            switch direction {
            case .refresh: yield &refreshLane.phase
            case .prepend: yield &edges.top.lane.phase
            case .append: yield &edges.bottom.lane.phase
            }
        }
    }

    /// The direction whose load in flight has `ticket`, if any.
    @inlinable
    func direction(of ticket: UInt64) -> PageDirection? {
        if refreshLane.phase.holds(ticket) { return .refresh }
        if edges.bottom.lane.phase.holds(ticket) { return .append }
        if edges.top.lane.phase.holds(ticket) { return .prepend }
        return nil
    }

    // MARK: Publishing

    /// The load state of each direction: the truth every other answer of the snapshot is derived from.
    @inlinable
    var derivedLoadStates: LoadStates<Failure> {
        LoadStates(
            refresh: refreshLane.phase.loadState(endReached: false),
            prepend: edges.top.lane.phase.loadState(endReached: hasList && list.top.key == nil),
            append: edges.bottom.lane.phase.loadState(endReached: hasList && list.bottom.key == nil))
    }

    /// Copies the list's rows into the snapshot, brings its derived fields up to date and marks it for
    /// publication.
    @inlinable
    mutating func publish(_ effects: inout Effects) {
        snapshot.items = list.items
        snapshot.total = list.total
        snapshot.metadata = list.metadata
        snapshot.leadingCount = list.leadingCount
        let loadStates = derivedLoadStates
        let state = PagingState(loadStates, hasList: hasList, listWasEmpty: list.wasEmpty)
        #if STAPLER_INTERNAL_CHECKS
            precondition(
                snapshot.state.name == state.name || snapshot.state.canMove(to: state)
                    || effects.allowsAnyMove,
                "illegal paging transition \(snapshot.state.name) -> \(state.name)")
        #endif
        snapshot.state = state
        updatePlaceholders(&effects)
        snapshot.loadStates = loadStates
        snapshot.isEndReached = hasList && list.bottom.key == nil
        snapshot.pages = snapshot.items.pageCount
        snapshot.stopReason = stopReason
        var shown = FailureSerials()
        if refreshLane.phase.isFailed { shown.refresh = refreshLane.failedAt }
        if edges.top.lane.phase.isFailed { shown.prepend = edges.top.lane.failedAt }
        if edges.bottom.lane.phase.isFailed { shown.append = edges.bottom.lane.failedAt }
        snapshot.failureSerials = shown
        switch state {
        case .errorRefreshing: snapshot.stateFailureSerial = shown.refresh
        case .errorLoadingMore: snapshot.stateFailureSerial = shown.append != 0 ? shown.append : shown.prepend
        default: snapshot.stateFailureSerial = 0
        }
        snapshot.showsNextPageIndicator = BottomEdge(loadStates, stopReason: snapshot.stopReason)
            .showsNextPageIndicator(laterPageRequested: hasList && edges.bottom.requestedPage)
        effects.publish = true
    }

    /// Why loading stopped at the bottom, or `nil` while it can go on.
    @inlinable
    var stopReason: StopReason<Failure>? {
        if let error = edges.bottom.lane.phase.error {
            if case .repeatedKey = error { return .repeatedKey }
            return .failed(error)
        }
        if edges.bottom.lane.phase.isLoading || refreshLane.phase.isLoading { return nil }
        guard hasList else { return refreshLane.phase.error.map { .failed($0) } }
        if list.bottom.key == nil {
            if let pages = edges.bottom.stoppedWithoutProgress { return .noProgress(pages: pages) }
            return list.wasEmpty ? .emptyFirstPage : .endOfList
        }
        return edges.bottom.cancelled ? .cancelled : nil
    }

    /// Whether an edge load could start now in `direction`.
    @inlinable
    func canLoad(_ direction: PageDirection) -> Bool {
        direction != .refresh && reasonNotToLoad(direction) == nil
    }

    /// Why an edge load could not start now in `direction`, or `nil` if it could.
    @inlinable
    func reasonNotToLoad(_ direction: PageDirection) -> IgnoredReason? {
        guard hasList else { return refreshLane.phase.isLoading ? .refreshing : .notLoaded }
        if refreshLane.phase.isLoading { return .refreshing }
        if self[phase: direction].isLoading { return .alreadyLoading }
        if self[phase: direction].isFailed { return .awaitingRetry }
        let key = direction == .append ? list.bottom.key : list.top.key
        return key == nil ? .endReached : nil
    }

    /// Whether the failed later page could be requested again now.
    @inlinable
    var canRetryNext: Bool {
        edges.bottom.lane.phase.isFailed && !refreshLane.phase.isLoading
    }

    /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the machine breaks a rule.
    ///
    /// It runs each sub-value's own checks (``ShownList/checkInvariants()``, ``Edges/checkInvariants()``,
    /// ``LoadLane/checkInvariants()``, ``RefreshUndo/checkInvariants()``), then the rules between them: a
    /// refresh runs alone, edges load only a shown list, and an undo is held exactly while a refresh is in
    /// flight. The configuration, a `let`, is checked once, when the machine is made.
    @inlinable
    func checkInvariants() {
        #if STAPLER_INTERNAL_CHECKS
            list.checkInvariants()
            edges.checkInvariants()
            refreshLane.checkInvariants()
            refreshUndo?.checkInvariants()
            let edgesLoad = edges.top.lane.phase.load != nil || edges.bottom.lane.phase.load != nil
            if refreshLane.phase.load != nil { precondition(!edgesLoad, "a refresh runs alone") }
            if !hasList { precondition(!edgesLoad, "edges load only a shown list") }
            precondition(
                (refreshLane.phase.load != nil) == (refreshUndo != nil), "an undo exactly while a refresh is in flight")
        #endif
    }
}

/// How the first-page load of a generation ended, for the actions that started it.
@usableFromInline
enum FirstPageOutcome<Failure: Error>: Sendable {
    case loaded
    case failed(PagingError<Failure>)
    /// A newer refresh replaced it.
    case superseded
    /// `cancel()` stopped it.
    case cancelled
}
