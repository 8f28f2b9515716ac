/// The pure state machine of the paging engine.
///
/// It owns every piece of paging state (the explicit state, the items, the keys, the dedup set) and
/// changes it only through ``handle(_:)``, which returns the effects to run: start or cancel a load,
/// publish a new snapshot, report an error or a first-page outcome. The engine calls `handle` under its
/// lock and runs the effects after unlocking, so the machine never calls user code.
///
/// A load is identified by a ticket; only the response of the load in flight is applied, so a response
/// of a superseded load (after a refresh, a query change, a cancel or a retry) is dropped whenever and
/// on whatever thread it arrives.
@usableFromInline
struct PagingMachine<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error> {
    @usableFromInline typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
    @usableFromInline typealias Request = PageRequest<Key, Query>

    @usableFromInline let firstKey: Key
    @usableFromInline let pageSize: Int
    @usableFromInline var query: Query
    @usableFromInline var snapshot: Snapshot

    /// The key the next page load asks for; `nil` at the end.
    @usableFromInline var nextKey: Key?
    /// The key of the load in flight, or of the page that failed (what `retry()` asks for again).
    @usableFromInline var pendingKey: Key?
    /// Every key used in this generation (the guard against cursors that loop).
    @usableFromInline var usedKeys: Set<Key>
    /// The identities of the loaded items, when deduplicating.
    @usableFromInline var loadedIdentities: Set<AnyHashable>
    @usableFromInline var secondPageRequested: Bool
    /// The load in flight.
    @usableFromInline var inFlight: Load?
    @usableFromInline var lastTicket: UInt64
    /// What `cancel()` during a refresh goes back to: the state and the query the refresh left.
    @usableFromInline var beforeRefresh: PagingState<Failure>
    @usableFromInline var queryBeforeRefresh: Query
    /// Where the list stood when a refresh left it, so `cancel()` can resume paging it.
    @usableFromInline var positionBeforeRefresh: Position?

    /// The paging position of a list with data: what a refresh resets and a cancelled refresh restores.
    @usableFromInline
    struct Position {
        @usableFromInline let nextKey: Key?
        @usableFromInline let pendingKey: Key?
        @usableFromInline let usedKeys: Set<Key>
        @usableFromInline let loadedIdentities: Set<AnyHashable>
        @usableFromInline let secondPageRequested: Bool
        @usableFromInline let isEndReached: Bool

        @inlinable
        init(
            nextKey: Key?, pendingKey: Key?, usedKeys: Set<Key>, loadedIdentities: Set<AnyHashable>,
            secondPageRequested: Bool, isEndReached: Bool
        ) {
            self.nextKey = nextKey
            self.pendingKey = pendingKey
            self.usedKeys = usedKeys
            self.loadedIdentities = loadedIdentities
            self.secondPageRequested = secondPageRequested
            self.isEndReached = isEndReached
        }
    }

    @usableFromInline
    struct Load {
        @usableFromInline let ticket: UInt64
        @usableFromInline let request: Request

        @inlinable
        init(ticket: UInt64, request: Request) {
            self.ticket = ticket
            self.request = request
        }
    }

    @inlinable
    init(firstKey: Key, pageSize: Int, query: Query) {
        self.firstKey = firstKey
        self.pageSize = pageSize
        self.query = query
        snapshot = .initial
        usedKeys = []
        loadedIdentities = []
        secondPageRequested = false
        lastTicket = 0
        beforeRefresh = .uninitialized
        queryBeforeRefresh = query
    }

    /// What the machine is asked to do.
    @usableFromInline
    enum Input {
        /// Start a new generation from the first page, with a new query or the current one.
        case refresh(query: Query?)
        /// Load the next page if nothing is loading and the end is not reached; with
        /// `retryingFailedPage`, an `errorLoadingMore` state also requests the failed page again.
        case loadNext(retryingFailedPage: Bool)
        /// Load the next page if row `index` is at most `distance` rows before the last row.
        case preload(index: Int, distance: Int)
        /// Request the failed page again.
        case retry
        /// Cancel the load in flight; `generation` limits it to a first-page load of that generation.
        case cancel(generation: UInt64?)
        /// A load's page arrived; `identities` are its items' identities when deduplicating.
        case loaded(ticket: UInt64, page: Page<Item, Key, Metadata>, identities: [AnyHashable]?)
        /// A load failed.
        case failed(ticket: UInt64, error: PagingError<Failure>)
        /// A load ended without a page or an error (it was interrupted).
        case interrupted(ticket: UInt64)
    }

    /// What the engine must do after a transition.
    @usableFromInline
    struct Effects {
        /// Whether to start the load in flight (``inFlight``).
        ///
        /// Effects hold flags and plain values only: a generic payload would make every transition, even
        /// one that does nothing, destroy its effects through value witnesses.
        @usableFromInline var startsLoad = false
        /// The ticket of a load to dispose.
        @usableFromInline var cancel: UInt64?
        /// Whether the snapshot changed and must be published.
        @usableFromInline var publish = false
        /// Whether a page was applied (its metadata became the snapshot's).
        @usableFromInline var appliesPage = false
        /// Whether the query changed (a refresh with a query, or a cancelled one that restored the old).
        @usableFromInline var changesQuery = false
        /// The items change to publish with the snapshot.
        @usableFromInline var itemsChange: ItemsChange?
        /// The items before ``itemsChange``.
        @usableFromInline var previousItems = PagedItems<Item>()
        /// Whether a later page failed (the error is the state's), for `errorsAfterFirstPage`.
        @usableFromInline var reportsLaterPageError = false
        /// First-page outcomes to report, by generation.
        @usableFromInline var firstPageOutcomes: [(generation: UInt64, outcome: FirstPageOutcome<Failure>)] = []

        @inlinable
        init() {}

        @inlinable
        var isEmpty: Bool {
            !startsLoad && cancel == nil && !publish && firstPageOutcomes.isEmpty
        }
    }

    /// Applies `input` and returns the effects to run.
    ///
    /// The engine calls the method of each input directly (`receiveRefresh(query:)` and its siblings), so
    /// no input value is built and copied on its paths; this is the same dispatch, for tests.
    ///
    /// - Complexity: O(1) for every input but a page, which costs O(page size).
    @inlinable
    mutating func handle(_ input: Input) -> Effects {
        switch input {
        case .refresh(let newQuery): receiveRefresh(query: newQuery)
        case .loadNext(let retrying): receiveLoadNext(retryingFailedPage: retrying)
        case .preload(let index, let distance): receivePreload(index: index, distance: distance)
        case .retry: receiveRetry()
        case .cancel(let generation): receiveCancel(generation: generation)
        case .loaded(let ticket, let page, let identities):
            receiveLoaded(ticket: ticket, page: page, identities: identities)
        case .failed(let ticket, let error): receiveFailed(ticket: ticket, error: error)
        case .interrupted(let ticket): receiveInterrupted(ticket: ticket)
        }
    }

    /// Handles ``Input/refresh(query:)``.
    @inlinable
    mutating func receiveRefresh(query newQuery: Query?) -> Effects {
        var effects = Effects()
        refresh(query: newQuery, &effects)
        checkInvariants()
        return effects
    }

    /// Handles ``Input/loadNext(retryingFailedPage:)``.
    @inlinable
    mutating func receiveLoadNext(retryingFailedPage retrying: Bool) -> Effects {
        var effects = Effects()
        switch snapshot.state {
        case .data where !snapshot.isEndReached && inFlight == nil:
            if let key = nextKey { startLoad(key, moving: .loadingMore, &effects) }
        case .errorLoadingMore where retrying:
            if let key = pendingKey { startLoad(key, moving: .loadingMore, &effects) }
        default:
            break
        }
        checkInvariants()
        return effects
    }

    /// Handles ``Input/preload(index:distance:)``.
    @inlinable
    mutating func receivePreload(index: Int, distance: Int) -> Effects {
        let count = snapshot.items.count
        guard index >= 0, index < count, index >= count - 1 - distance else { return Effects() }
        return receiveLoadNext(retryingFailedPage: false)
    }

    /// Handles ``Input/retry``.
    @inlinable
    mutating func receiveRetry() -> Effects {
        var effects = Effects()
        switch snapshot.state {
        case .errorLoadingMore:
            if let key = pendingKey { startLoad(key, moving: .loadingMore, &effects) }
        case .errorRefreshing:
            startLoad(firstKey, moving: .refreshing, &effects)
        case .noData:
            // "Try again" on an empty list reloads it, as a refresh with the same query does.
            refresh(query: nil, &effects)
        default:
            break
        }
        checkInvariants()
        return effects
    }

    /// Handles ``Input/cancel(generation:)``.
    @inlinable
    mutating func receiveCancel(generation: UInt64?) -> Effects {
        var effects = Effects()
        cancel(generation: generation, &effects)
        checkInvariants()
        return effects
    }

    /// Handles ``Input/loaded(ticket:page:identities:)``.
    @inlinable
    mutating func receiveLoaded(
        ticket: UInt64, page: Page<Item, Key, Metadata>, identities: [AnyHashable]?
    ) -> Effects {
        var effects = Effects()
        if let load = inFlight, load.ticket == ticket {
            effects.cancel = ticket
            inFlight = nil
            apply(page, identities: identities, of: load, &effects)
        }
        checkInvariants()
        return effects
    }

    /// Handles ``Input/failed(ticket:error:)``.
    @inlinable
    mutating func receiveFailed(ticket: UInt64, error: PagingError<Failure>) -> Effects {
        var effects = Effects()
        if let load = inFlight, load.ticket == ticket {
            effects.cancel = ticket
            inFlight = nil
            fail(with: error, load: load, &effects)
        }
        checkInvariants()
        return effects
    }

    /// Handles ``Input/interrupted(ticket:)``.
    @inlinable
    mutating func receiveInterrupted(ticket: UInt64) -> Effects {
        var effects = Effects()
        if inFlight?.ticket == ticket {
            cancel(generation: nil, &effects)
        }
        checkInvariants()
        return effects
    }

    // MARK: Transitions

    @inlinable
    mutating func refresh(query newQuery: Query?, _ effects: inout Effects) {
        if let load = inFlight {
            effects.cancel = load.ticket
            if case .refreshing = snapshot.state {
                effects.firstPageOutcomes.append((snapshot.generation, .superseded))
            }
            inFlight = nil
        }
        if case .refreshing = snapshot.state {
        } else {
            queryBeforeRefresh = query
        }
        switch snapshot.state {
        case .refreshing:
            break
        case .data, .loadingMore, .errorLoadingMore:
            beforeRefresh = snapshot.state
            positionBeforeRefresh = Position(
                nextKey: nextKey, pendingKey: pendingKey, usedKeys: usedKeys,
                loadedIdentities: loadedIdentities, secondPageRequested: secondPageRequested,
                isEndReached: snapshot.isEndReached)
        default:
            beforeRefresh = snapshot.state
        }
        if let newQuery {
            query = newQuery
            effects.changesQuery = true
        }
        snapshot.generation &+= 1
        usedKeys = []
        secondPageRequested = false
        snapshot.showsNextPageIndicator = false
        startLoad(firstKey, moving: .refreshing, &effects)
    }

    @inlinable
    mutating func cancel(generation: UInt64?, _ effects: inout Effects) {
        guard let load = inFlight else { return }
        if let generation {
            guard generation == snapshot.generation, case .refreshing = snapshot.state else { return }
        }
        effects.cancel = load.ticket
        inFlight = nil
        switch snapshot.state {
        case .refreshing:
            effects.firstPageOutcomes.append((snapshot.generation, .cancelled))
            query = queryBeforeRefresh
            effects.changesQuery = true
            switch beforeRefresh {
            case .data, .loadingMore, .errorLoadingMore:
                // The list had data: resume paging it where it stood, with its query. A load it had in
                // flight was disposed by the refresh, so it returns as `data` and asks for that page again.
                restore(positionBeforeRefresh)
                move(to: .data, &effects)
            default:
                move(to: beforeRefresh, &effects)
            }
        case .loadingMore:
            move(to: .data, &effects)
        default:
            break
        }
    }

    @inlinable
    mutating func restore(_ position: Position?) {
        guard let position else { return }
        nextKey = position.nextKey
        pendingKey = position.pendingKey
        usedKeys = position.usedKeys
        loadedIdentities = position.loadedIdentities
        secondPageRequested = position.secondPageRequested
        snapshot.isEndReached = position.isEndReached
    }

    @inlinable
    mutating func startLoad(_ key: Key, moving state: PagingState<Failure>, _ effects: inout Effects) {
        lastTicket &+= 1
        let pageIndex: Int
        if case .refreshing = state {
            pageIndex = 0
            usedKeys.insert(key)
        } else {
            pageIndex = snapshot.pages
            if !secondPageRequested {
                secondPageRequested = true
            }
        }
        let load = Load(
            ticket: lastTicket, request: Request(key: key, pageSize: pageSize, query: query, pageIndex: pageIndex))
        inFlight = load
        pendingKey = key
        effects.startsLoad = true
        move(to: state, &effects)
    }

    @inlinable
    mutating func fail(with error: PagingError<Failure>, load: Load, _ effects: inout Effects) {
        if load.request.pageIndex == 0 {
            move(to: .errorRefreshing(error), &effects)
            effects.firstPageOutcomes.append((snapshot.generation, .failed(error)))
        } else {
            move(to: .errorLoadingMore(error), &effects)
            effects.reportsLaterPageError = true
        }
    }

    @inlinable
    mutating func apply(
        _ page: Page<Item, Key, Metadata>, identities: [AnyHashable]?, of load: Load, _ effects: inout Effects
    ) {
        if let total = page.total, total < 0 {
            return fail(with: .invalidTotal(total), load: load, &effects)
        }
        let isFirst = load.request.pageIndex == 0
        let ends = page.items.isEmpty || page.nextKey == nil
        if !ends, let next = page.nextKey, usedKeys.contains(next) || next == load.request.key {
            return fail(with: .repeatedKey, load: load, &effects)
        }
        if isFirst {
            loadedIdentities = []
            positionBeforeRefresh = nil
        }
        let kept = keep(page.items, identities: identities)
        let previous = snapshot.items
        if isFirst {
            snapshot.items = kept.isEmpty ? PagedItems() : PagedItems().appending(kept)
            snapshot.pages = 1
            if !kept.isEmpty {
                effects.previousItems = previous
                effects.itemsChange = .reloaded
            } else if !previous.isEmpty {
                effects.previousItems = previous
                effects.itemsChange = .cleared
            }
        } else {
            snapshot.items = previous.appending(kept)
            snapshot.pages += 1
            if !kept.isEmpty {
                effects.previousItems = previous
                effects.itemsChange = .appended(previous.count..<snapshot.items.count)
            }
        }
        if let next = page.nextKey, !ends {
            usedKeys.insert(next)
            nextKey = next
        } else {
            nextKey = nil
        }
        snapshot.isEndReached = ends
        snapshot.total = page.total
        snapshot.metadata = page.metadata
        effects.appliesPage = true
        if isFirst {
            move(to: page.items.isEmpty ? .noData : .data, &effects)
            effects.firstPageOutcomes.append((snapshot.generation, .loaded))
        } else {
            move(to: .data, &effects)
        }
    }

    /// The items of a page minus those already loaded (and repeats within the page), when deduplicating.
    @inlinable
    mutating func keep(_ items: [Item], identities: [AnyHashable]?) -> ContiguousArray<Item> {
        guard let identities else { return ContiguousArray(items) }
        var kept = ContiguousArray<Item>()
        kept.reserveCapacity(items.count)
        for (item, identity) in zip(items, identities) where loadedIdentities.insert(identity).inserted {
            kept.append(item)
        }
        return kept
    }

    @inlinable
    mutating func move(to state: PagingState<Failure>, _ effects: inout Effects) {
        #if STAPLER_INTERNAL_CHECKS
            precondition(
                snapshot.state.canMove(to: state), "illegal paging transition \(snapshot.state.name) -> \(state.name)")
        #endif
        snapshot.state = state
        switch state {
        case .data, .loadingMore:
            snapshot.showsNextPageIndicator = secondPageRequested && !snapshot.isEndReached
        default:
            snapshot.showsNextPageIndicator = false
        }
        effects.publish = true
    }

    /// Whether a next-page load could start now (what ``PagingGate`` records).
    @inlinable
    var canLoadNext: Bool {
        if case .data = snapshot.state { return !snapshot.isEndReached && inFlight == nil && nextKey != nil }
        return false
    }

    /// Whether the failed later page could be requested again now.
    @inlinable
    var canRetryNext: Bool {
        if case .errorLoadingMore = snapshot.state { return pendingKey != nil }
        return false
    }

    @inlinable
    func checkInvariants() {
        #if STAPLER_INTERNAL_CHECKS
            precondition(snapshot.state.isLoading == (inFlight != nil), "a load is in flight exactly while loading")
            precondition(snapshot.items.count >= 0 && snapshot.pages >= 0, "counts are never negative")
            if case .loadingMore = snapshot.state {
                precondition(!snapshot.isEndReached, "no page loads after the end")
            }
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
