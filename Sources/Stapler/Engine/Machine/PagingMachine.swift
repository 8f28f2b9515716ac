/// The pure state machine of the paging engine: a two-ended list of pages and one load slot per
/// direction.
///
/// It owns every piece of paging state (the items and each page's keys, the load of each direction,
/// the keys used, the dedup set) and changes it only through its `receive...` methods, which return the
/// effects to run: start or dispose loads, publish a new snapshot, report an error or a first-page
/// outcome. The engine calls them under its lock and runs the effects after unlocking, so the machine
/// never calls user code.
///
/// Every load has a ticket; an answer is applied only if its ticket is the one its direction's slot
/// holds, so an answer of a superseded load (after a refresh, a query change, a cancel, a retry) is
/// dropped whenever and on whatever thread it arrives, in every direction.
///
/// What is valid is spelled by the slots: a refresh in flight means both edge slots are idle; an edge
/// loads only while a list is shown (``hasList``). The seven-state ``PagingState`` and the
/// ``LoadStates`` are derived from the slots when a snapshot is published (``publish(_:)``).
@usableFromInline
struct PagingMachine<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error> {
    @usableFromInline typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
    @usableFromInline typealias Request = PageRequest<Key, Query>
    @usableFromInline typealias Load = PageLoad<Key, Query>
    @usableFromInline typealias Slot = LoadSlot<Key, Query, Failure>

    /// The key a restart loads: the source's first key, or the key the list was last opened at.
    @usableFromInline var openingKey: Key
    @usableFromInline let pageSize: Int
    /// The query of the current generation (the latest refresh's, even while it loads or after it failed).
    @usableFromInline var query: Query
    /// The query of the list shown: what edge loads ask with.
    @usableFromInline var listQuery: Query
    /// What the machine publishes; its derived fields are brought up to date by ``publish(_:)``.
    @usableFromInline var snapshot: Snapshot

    @usableFromInline var refreshSlot: Slot = .idle
    @usableFromInline var prependSlot: Slot = .idle
    @usableFromInline var appendSlot: Slot = .idle

    /// Whether a first page was applied: a list (maybe empty) is shown and its edges can page.
    @usableFromInline var hasList = false
    /// Whether the shown list's first page was empty (`noData`).
    @usableFromInline var listWasEmpty = false
    /// The keys of each shown page, in list order.
    @usableFromInline var pageKeys = PageKeyList<Key>()
    /// The key the next prepend asks for; `nil` once the top is reached.
    @usableFromInline var topKey: Key?
    /// The key the next append asks for; `nil` once the bottom is reached.
    @usableFromInline var bottomKey: Key?
    /// Every key used by the shown list but the dropped pages' (``DroppedPages`` holds those, in memory
    /// that does not grow with them when they are regular; ``claim(_:)`` asks both): the guard against
    /// keys that loop, in both directions.
    @usableFromInline var usedKeys: Set<Key> = []
    /// The identities of the shown items and of every item removed from the list, when deduplicating.
    @usableFromInline var loadedIdentities: Set<ItemIdentity> = []
    /// The items edits removed (or replaced by an item of another identity), when deduplicating: their
    /// identities stay loaded, and a saved list carries them.
    @usableFromInline var removedByEdits: [Item] = []
    /// The identities of the local rows added at an end that no page has brought yet, when deduplicating.
    @usableFromInline var localIdentities: Set<ItemIdentity> = []
    /// A catch-up of an edge in progress (``PagingMachine/receiveCatchUp(at:maxPages:reason:)``).
    @usableFromInline var catchUp: CatchUp?
    @usableFromInline var secondPageRequested = false
    @usableFromInline var lastTicket: UInt64 = 0
    /// What `cancel()` of a refresh goes back to: the refresh slot and the query the refresh left.
    @usableFromInline var slotBeforeRefresh: Slot = .idle
    @usableFromInline var queryBeforeRefresh: Query
    /// A refresh of several pages in progress (``RefreshMode/reloadAll``, ``RefreshMode/around(index:minimumCount:)``).
    @usableFromInline var progress: RefreshProgress?

    /// How many pages in a row may add nothing (see ``PagingPolicy/noProgressLimit``); `nil` for the
    /// default rule.
    @usableFromInline let noProgressLimit: Int?
    /// How many automatic retries follow one failure; 0 for none.
    @usableFromInline let maxAutoRetries: Int
    /// Pages in a row that added nothing, at the top and at the bottom.
    @usableFromInline var idlePagesAbove = 0
    @usableFromInline var idlePagesBelow = 0
    /// Set when the bottom ended because pages added nothing: how many.
    @usableFromInline var bottomStoppedWithoutProgress: Int?
    /// Whether `cancel()` stopped the bottom's load (until it loads again).
    @usableFromInline var bottomCancelled = false
    /// Automatic retries made since the last success or explicit retry, per edge and for a refresh.
    @usableFromInline var autoRetries = (refresh: 0, prepend: 0, append: 0)
    /// Increases with every failure; a scheduled automatic retry carries the serial of the failure it
    /// retries, and does nothing if another failure, a refresh or a cancel came since.
    @usableFromInline var failureSerial: UInt64 = 0
    /// The serial of the latest failure of each direction.
    @usableFromInline var failedAt = FailureSerials()
    /// The list a query change blanked, kept while its refresh loads so that `cancel()` can bring it back.
    @usableFromInline var blankedList: ShownList?
    /// The failure an automatic retry is scheduled for, if any.
    @usableFromInline var scheduledRetry: (direction: PageDirection, serial: UInt64)?
    /// The memory bound, if any (see ``enforceBound(after:_:)``).
    @usableFromInline let bound: MemoryBound?
    /// The keys of the pages the bound dropped above and below the list shown.
    @usableFromInline var droppedAbove = DroppedPages<Key>()
    @usableFromInline var droppedBelow = DroppedPages<Key>()
    /// The row last shown, counted from the opening page's first row (see ``recordAccess(row:)``).
    @usableFromInline var lastAccessedRow: Int?
    /// The position of the top page from the list's first page (``PageRequest/pageIndex``).
    @usableFromInline var firstPageIndex = 0
    /// The lists of earlier queries, when a ``QueryCache`` is on.
    @usableFromInline var queryCache: CachedLists?
    /// Whether the list is shown at full length, with placeholders (see ``PagedSlots``).
    @usableFromInline var placeholders = false
    /// How far from the loaded rows, in slots, a preload jumps; with the key of a slot's page.
    @usableFromInline var jump: (threshold: Int, key: @Sendable (_ slot: Int, _ pageSize: Int) -> Key)?

    @inlinable
    init(
        firstKey: Key, pageSize: Int, query: Query, noProgressLimit: Int? = nil, maxAutoRetries: Int = 0,
        bound: MemoryBound? = nil
    ) {
        openingKey = firstKey
        self.bound = bound
        self.noProgressLimit = noProgressLimit
        self.maxAutoRetries = maxAutoRetries
        self.pageSize = pageSize
        self.query = query
        listQuery = query
        queryBeforeRefresh = query
        snapshot = .initial
    }

    /// The load in flight of any direction (the refresh's first), for tests and assertions.
    @inlinable
    var inFlight: Load? {
        refreshSlot.load ?? appendSlot.load ?? prependSlot.load
    }

    /// The slot of `direction`.
    @inlinable
    subscript(slot direction: PageDirection) -> Slot {
        get {
            switch direction {
            case .refresh: refreshSlot
            case .prepend: prependSlot
            case .append: appendSlot
            }
        }
        set {
            switch direction {
            case .refresh: refreshSlot = newValue
            case .prepend: prependSlot = newValue
            case .append: appendSlot = newValue
            }
        }
    }

    /// The direction whose load in flight has `ticket`, if any.
    @inlinable
    func direction(of ticket: UInt64) -> PageDirection? {
        if refreshSlot.holds(ticket) { return .refresh }
        if appendSlot.holds(ticket) { return .append }
        if prependSlot.holds(ticket) { return .prepend }
        return nil
    }

    // MARK: Publishing

    /// The load state of each direction: the truth every other answer of the snapshot is derived from.
    @inlinable
    var derivedLoadStates: LoadStates<Failure> {
        LoadStates(
            refresh: refreshSlot.loadState(endReached: false),
            prepend: prependSlot.loadState(endReached: hasList && topKey == nil),
            append: appendSlot.loadState(endReached: hasList && bottomKey == nil))
    }

    /// Brings the snapshot's derived fields up to date and marks it for publication.
    @inlinable
    mutating func publish(_ effects: inout Effects) {
        let loadStates = derivedLoadStates
        let state = PagingState(loadStates, hasList: hasList, listWasEmpty: listWasEmpty)
        #if STAPLER_INTERNAL_CHECKS
            precondition(
                snapshot.state.name == state.name || snapshot.state.canMove(to: state)
                    || effects.allowsAnyMove,
                "illegal paging transition \(snapshot.state.name) -> \(state.name)")
        #endif
        snapshot.state = state
        updatePlaceholders(&effects)
        snapshot.loadStates = loadStates
        snapshot.isEndReached = hasList && bottomKey == nil
        snapshot.pages = snapshot.items.pageCount
        snapshot.stopReason = stopReason
        var shown = FailureSerials()
        if refreshSlot.error != nil { shown.refresh = failedAt.refresh }
        if prependSlot.error != nil { shown.prepend = failedAt.prepend }
        if appendSlot.error != nil { shown.append = failedAt.append }
        snapshot.failureSerials = shown
        switch state {
        case .errorRefreshing: snapshot.stateFailureSerial = shown.refresh
        case .errorLoadingMore: snapshot.stateFailureSerial = shown.append != 0 ? shown.append : shown.prepend
        default: snapshot.stateFailureSerial = 0
        }
        snapshot.showsNextPageIndicator = BottomEdge(loadStates, stopReason: snapshot.stopReason)
            .showsNextPageIndicator(laterPageRequested: hasList && secondPageRequested)
        effects.publish = true
    }

    /// Why loading stopped at the bottom, or `nil` while it can go on.
    @inlinable
    var stopReason: StopReason<Failure>? {
        if let error = appendSlot.error {
            if case .repeatedKey = error { return .repeatedKey }
            return .failed(error)
        }
        if appendSlot.load != nil || refreshSlot.load != nil { return nil }
        guard hasList else { return refreshSlot.error.map { .failed($0) } }
        if bottomKey == nil {
            if let pages = bottomStoppedWithoutProgress { return .noProgress(pages: pages) }
            return listWasEmpty ? .emptyFirstPage : .endOfList
        }
        return bottomCancelled ? .cancelled : nil
    }

    /// Whether an edge load could start now in `direction`.
    @inlinable
    func canLoad(_ direction: PageDirection) -> Bool {
        direction != .refresh && reasonNotToLoad(direction) == nil
    }

    /// Why an edge load could not start now in `direction`, or `nil` if it could.
    @inlinable
    func reasonNotToLoad(_ direction: PageDirection) -> IgnoredReason? {
        guard hasList else { return refreshSlot.load != nil ? .refreshing : .notLoaded }
        if refreshSlot.load != nil { return .refreshing }
        let slot = self[slot: direction]
        if slot.load != nil { return .alreadyLoading }
        if slot.error != nil { return .awaitingRetry }
        let key = direction == .append ? bottomKey : topKey
        return key == nil ? .endReached : nil
    }

    /// Whether the failed later page could be requested again now.
    @inlinable
    var canRetryNext: Bool {
        appendSlot.error != nil && refreshSlot.load == nil
    }

    @inlinable
    func checkInvariants() {
        #if STAPLER_INTERNAL_CHECKS
            if refreshSlot.load != nil {
                precondition(prependSlot.load == nil && appendSlot.load == nil, "a refresh runs alone")
            }
            if !hasList {
                precondition(prependSlot.load == nil && appendSlot.load == nil, "edges load only a shown list")
            }
            precondition(pageKeys.count == snapshot.items.pageCount, "one key record per page")
            snapshot.items.checkInvariants()
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

extension PagingMachine {
    /// Everything that makes up the list shown, to blank it and bring it back.
    @usableFromInline
    struct ShownList {
        @usableFromInline let items: PagedItems<Item>
        @usableFromInline let pageKeys: PageKeyList<Key>
        @usableFromInline let topKey: Key?
        @usableFromInline let bottomKey: Key?
        @usableFromInline let usedKeys: Set<Key>
        @usableFromInline let loadedIdentities: Set<ItemIdentity>
        @usableFromInline let listWasEmpty: Bool
        @usableFromInline let leadingCount: Int
        @usableFromInline let listQuery: Query
        @usableFromInline let total: Int?
        @usableFromInline let metadata: Metadata?
        @usableFromInline let droppedAbove: DroppedPages<Key>
        @usableFromInline let droppedBelow: DroppedPages<Key>
        @usableFromInline let lastAccessedRow: Int?
        @usableFromInline let firstPageIndex: Int
        @usableFromInline let removedByEdits: [Item]

        @inlinable
        init(_ machine: PagingMachine) {
            removedByEdits = machine.removedByEdits
            droppedAbove = machine.droppedAbove
            droppedBelow = machine.droppedBelow
            lastAccessedRow = machine.lastAccessedRow
            firstPageIndex = machine.firstPageIndex
            items = machine.snapshot.items
            pageKeys = machine.pageKeys
            topKey = machine.topKey
            bottomKey = machine.bottomKey
            usedKeys = machine.usedKeys
            loadedIdentities = machine.loadedIdentities
            listWasEmpty = machine.listWasEmpty
            leadingCount = machine.snapshot.leadingCount
            listQuery = machine.listQuery
            total = machine.snapshot.total
            metadata = machine.snapshot.metadata
        }
    }

    /// Blanks the list shown (a query change with ``PagingPolicy/clearsOnQueryChange``), keeping it for
    /// `cancel()`.
    @inlinable
    mutating func blankList(_ effects: inout Effects) {
        let shown = ShownList(self)
        blankedList = shown
        snapshot.items = PagedItems()
        pageKeys = PageKeyList()
        forgetDroppedPages()
        hasList = false
        snapshot.leadingCount = 0
        snapshot.listSerial &+= 1
        effects.previousItems = shown.items
        effects.itemsChange = .cleared
    }

    /// Brings back the list a query change blanked (its refresh was cancelled).
    @inlinable
    mutating func restoreBlankedList(_ effects: inout Effects) {
        guard let shown = blankedList else { return }
        blankedList = nil
        show(shown, &effects)
    }

    /// Shows `shown` in place of the list shown, as one reload.
    @inlinable
    mutating func show(_ shown: ShownList, _ effects: inout Effects) {
        effects.previousItems = snapshot.items
        snapshot.items = shown.items
        pageKeys = shown.pageKeys
        topKey = shown.topKey
        bottomKey = shown.bottomKey
        usedKeys = shown.usedKeys
        loadedIdentities = shown.loadedIdentities
        localIdentities = []
        catchUp = nil
        listWasEmpty = shown.listWasEmpty
        listQuery = shown.listQuery
        snapshot.total = shown.total
        snapshot.metadata = shown.metadata
        snapshot.leadingCount = shown.leadingCount
        droppedAbove = shown.droppedAbove
        droppedBelow = shown.droppedBelow
        lastAccessedRow = shown.lastAccessedRow
        firstPageIndex = shown.firstPageIndex
        removedByEdits = shown.removedByEdits
        snapshot.listSerial &+= 1
        hasList = true
        effects.itemsChange = .reloaded
    }
}
