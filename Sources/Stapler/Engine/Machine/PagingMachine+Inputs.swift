extension PagingMachine {
    /// Starts a new generation at the opening key (``RefreshMode/restart``).
    @inlinable
    mutating func receiveRefresh(query newQuery: Query?) -> Effects {
        receiveRefresh(.restart, query: newQuery)
    }

    /// Starts a new generation in `mode`.
    ///
    /// With `blanking`, the list shown is blanked at once (a query change with
    /// ``PagingPolicy/clearsOnQueryChange``). With a ``QueryCache``, `visit` is the new query's: the list shown is kept under its query, and a kept list of the new query is shown at
    /// once and revalidated with the cache's refresh mode.
    @inlinable
    mutating func receiveRefresh(
        _ mode: RefreshMode<Key>, query newQuery: Query?, blanking: Bool = false, visit: QueryVisit? = nil
    ) -> Effects {
        var effects = Effects()
        var mode = mode
        var fromCache = false
        // A refresh around a row outside the list starts nothing, and changes nothing (the query included).
        if case .around(let index, _) = mode, hasList, !list.items.isEmpty, !list.items.indices.contains(index) {
            return effects
        }
        if let visit, let newQuery {
            (mode, fromCache) = switchCachedList(to: visit, mode: mode, &effects)
            if fromCache { query = newQuery }
        }
        refresh(mode, query: newQuery, showsQueryList: fromCache, &effects)
        if let visit, newQuery != nil { queryCache?.queryKey = visit.key }
        if fromCache, refreshLane.phase.load != nil {
            // The switch to the kept list stands: cancelling its revalidation keeps it and its query.
            refreshUndo = RefreshUndo(phase: .idle, query: query, queryKey: queryCache?.queryKey)
        }
        if blanking, !fromCache, effects.startsLoad, hasList, !list.items.isEmpty {
            blankList(&effects)
            publish(&effects)
        }
        checkInvariants()
        return effects
    }

    /// Loads the next page if the bottom edge can page, by the rule of
    /// ``reasonNotToLoadNext(retryingFailedPage:afterFailedRefresh:)``.
    ///
    /// With `retrying`, a failed next page is requested again. With `afterFailedRefresh` false, nothing
    /// loads while a refresh failure stands (the `Stapler` facade's rule: after a failed refresh only a
    /// refresh pages again).
    @inlinable
    mutating func receiveLoadNext(retryingFailedPage retrying: Bool, afterFailedRefresh: Bool = true) -> Effects {
        var effects = Effects()
        if reasonNotToLoadNext(retryingFailedPage: retrying, afterFailedRefresh: afterFailedRefresh) == nil {
            if case .failed(_, let request) = edges.bottom.lane.phase {
                startLoad(request, in: .append, &effects)
            } else {
                startEdgeLoad(.append, &effects)
            }
            publish(&effects)
        }
        checkInvariants()
        return effects
    }

    /// Why ``receiveLoadNext(retryingFailedPage:afterFailedRefresh:)`` would start nothing now, or `nil`
    /// if it would start a load: the one rule of every call that loads the next page, synchronous or
    /// awaited.
    ///
    /// With `afterFailedRefresh` false, a refresh failure that stands is ``IgnoredReason/awaitingRetry``
    /// (the facade's rule); with `retrying`, a failed next page can be requested again unless a refresh
    /// runs; otherwise it is why the bottom edge cannot load (``reasonNotToLoad(_:)``).
    @inlinable
    func reasonNotToLoadNext(retryingFailedPage retrying: Bool, afterFailedRefresh: Bool) -> IgnoredReason? {
        if !afterFailedRefresh, refreshLane.phase.error != nil { return .awaitingRetry }
        if retrying, canRetryNext { return nil }
        return reasonNotToLoad(.append)
    }

    /// Loads the previous page if the top edge can page.
    @inlinable
    mutating func receiveLoadPrevious() -> Effects {
        var effects = Effects()
        if canLoad(.prepend) {
            startEdgeLoad(.prepend, &effects)
            publish(&effects)
        }
        checkInvariants()
        return effects
    }

    /// Loads a page at each edge that row `index` is within `distance` rows of.
    ///
    /// `index` refers to the snapshot an observer last saw: when it is a snapshot of the same list
    /// (`seenListSerial`), the index moves down by the rows prepended since (`seenLeadingCount`), so a
    /// user interface that lags behind never asks for a prepend it has already had. With placeholders
    /// shown, `index` is a slot (slots keep their places): a placeholder counts as the loaded row
    /// nearest to it, or, farther than the jump threshold, loads its own page (``jump(toSlot:_:)``).
    @inlinable
    mutating func receivePreload(
        index: Int, distance: Int, seenLeadingCount: Int?, seenListSerial: UInt64?
    ) -> Effects {
        var index = index
        let count = list.items.count
        if showsPlaceholders {
            guard count > 0, index >= 0, index < snapshot.slots.count else { return Effects() }
            let row = index - snapshot.placeholdersBefore
            let outside = row < 0 ? -row : max(0, row - (count - 1))
            if let jump = configuration.jump, outside > jump.threshold {
                var effects = Effects()
                self.jump(toSlot: index, &effects)
                checkInvariants()
                return effects
            }
            index = min(max(row, 0), count - 1)
        } else {
            // A negative index is never a row shown, whatever was prepended since (the gate that judges
            // preloads without a bound or placeholders turns it away too).
            guard index >= 0 else { return Effects() }
            if let seenLeadingCount, seenListSerial == snapshot.listSerial {
                index += list.leadingCount - seenLeadingCount
            }
        }
        guard index >= 0, index < count else { return Effects() }
        recordAccess(row: index)
        var effects = Effects()
        // Pages kept over the bound while the row was near them go once it moves on.
        let dropped = dropOverBound(&effects)
        index -= dropped.top
        let rows = count - dropped.top - dropped.bottom
        if index <= distance, canLoad(.prepend) { startEdgeLoad(.prepend, &effects) }
        if index >= rows - 1 - distance, canLoad(.append) { startEdgeLoad(.append, &effects) }
        if effects.startsLoad || effects.dropsPages { publish(&effects) }
        checkInvariants()
        return effects
    }

    /// Requests again what failed: a failed refresh alone (it supersedes the edges), else every failed
    /// edge; on an empty list with nothing failed, reloads it as a refresh does.
    @inlinable
    mutating func receiveRetry() -> Effects {
        var effects = Effects()
        // An explicit retry runs at once; the automatic one waiting is dropped, and the count restarts.
        let scheduled = scheduledRetry?.direction
        if scheduled != nil {
            scheduledRetry = nil
            effects.cancelsRetry = true
        }
        defer {
            // The calls awaiting an automatic retry that no load of this retry takes over are superseded.
            if let scheduled, scheduled != .refresh, !effects[loads: scheduled].starts {
                effects.abandonedRetry = (scheduled, .superseded)
            }
        }
        refreshLane.autoRetries = 0
        edges.top.lane.autoRetries = 0
        edges.bottom.lane.autoRetries = 0
        switch refreshLane.phase {
        case .failed(_, let request):
            supersedeEdges(&effects)
            rememberBeforeRefresh()
            startLoad(request, in: .refresh, &effects)
            publish(&effects)
        case .loading:
            break
        case .idle:
            for direction in [PageDirection.prepend, .append] {
                if case .failed(_, let request) = self[phase: direction] {
                    startLoad(request, in: direction, &effects)
                }
            }
            if effects.startsLoad {
                publish(&effects)
            } else if hasList, list.wasEmpty, list.items.isEmpty {
                // "Try again" on an empty list reloads it, as a refresh with the same query does.
                refresh(.restart, query: nil, &effects)
            }
        }
        checkInvariants()
        return effects
    }

    /// Disposes the edges' loads in flight and leaves both edges idle: a refresh asked again runs alone.
    @inlinable
    mutating func supersedeEdges(_ effects: inout Effects) {
        for edge in [PageDirection.prepend, .append] {
            if let ticket = self[phase: edge].load?.ticket {
                effects.cancel(ticket, of: edge)
                effects.end(ticket, of: edge, as: .superseded)
            }
        }
        edges.top.lane.phase = .idle
        edges.bottom.lane.phase = .idle
    }

    /// Cancels the loads in flight; see ``Input/cancel(generation:)``.
    @inlinable
    mutating func receiveCancel(generation: UInt64?) -> Effects {
        var effects = Effects()
        if generation == nil { abandonScheduledRetry(as: .cancelled, &effects) }
        if let generation {
            if generation == snapshot.generation, refreshLane.phase.load != nil { cancelRefresh(&effects) }
        } else if refreshLane.phase.load != nil {
            cancelRefresh(&effects)
        } else {
            cancelEdge(.prepend, &effects)
            cancelEdge(.append, &effects)
        }
        if effects.publish { checkInvariants() }
        return effects
    }

    /// Handles a load that ended with neither a page nor an error: as `cancel()` of that load alone.
    @inlinable
    mutating func receiveInterrupted(ticket: UInt64) -> Effects {
        var effects = Effects()
        switch direction(of: ticket) {
        case .refresh?: cancelRefresh(&effects)
        case .some(let edge): cancelEdge(edge, &effects)
        case nil: break
        }
        checkInvariants()
        return effects
    }

    // MARK: Transitions

    /// Disposes the refresh in flight and undoes it: the query and refresh phase it left come back; the
    /// list shown and its keys were never touched, so its edges page on where they stood.
    @inlinable
    mutating func cancelRefresh(_ effects: inout Effects) {
        guard let load = refreshLane.phase.load else { return }
        effects.cancel(load.ticket, of: .refresh)
        effects.firstPageOutcomes.append((snapshot.generation, .cancelled))
        // A refresh in flight always has its undo; without one, the refresh's phase goes idle and the query stays.
        let undo = refreshUndo ?? RefreshUndo(phase: .idle, query: query, queryKey: nil)
        refreshUndo = nil
        refreshLane.phase = undo.phase
        progress = nil
        query = undo.query
        if let key = undo.queryKey { queryCache?.queryKey = key }
        effects.changesQuery = true
        restoreBlankedList(undo.blankedList, &effects)
        publish(&effects)
    }

    /// Disposes the load in flight at `edge`, if any; the edge can load the same page again.
    @inlinable
    mutating func cancelEdge(_ edge: PageDirection, _ effects: inout Effects) {
        guard let load = self[phase: edge].load else { return }
        effects.cancel(load.ticket, of: edge)
        effects.end(load.ticket, of: edge, as: .cancelled)
        self[phase: edge] = .idle
        if catchUp?.end.direction == edge { catchUp = nil }
        edges[edge].cancelled = true
        publish(&effects)
    }

    /// Starts a load of the next page at `edge` (which ``canLoad(_:)``).
    @inlinable
    mutating func startEdgeLoad(_ edge: PageDirection, _ effects: inout Effects) {
        guard let key = list[end: edge].key else { fatalError("PagingMachine: an edge load started at an ended edge") }
        let appends = edge == .append
        edges[edge].requestedPage = true
        edges[edge].cancelled = false
        let request = Request(
            key: key, pageSize: configuration.pageSize, query: list.query,
            pageIndex: appends ? list.firstPageIndex + list.pageKeys.count : list.firstPageIndex - 1, direction: edge,
            followingKey: appends ? nil : list.pageKeys.first?.key)
        startLoad(request, in: edge, &effects)
    }

    /// Puts a new load of `request` in `direction`'s phase, superseding the one there; with `batch`, the
    /// load runs every request of it (a reload of every shown page in parallel).
    @inlinable
    mutating func startLoad(
        _ request: Request, in direction: PageDirection,
        batch: PageBatch<Key, Query>? = nil, _ effects: inout Effects
    ) {
        if let ticket = self[phase: direction].load?.ticket { effects.cancel(ticket, of: direction) }
        lastTicket &+= 1
        self[phase: direction] = .loading(Load(ticket: lastTicket, request: request))
        if direction == .refresh { refreshBatch = batch.map { (lastTicket, $0) } }
        effects[loads: direction].starts = true
        if catchUp != nil { noteLoadStarted(request, in: direction, ticket: lastTicket) }
    }

    /// The requests `load` asks at once, if it is a refresh of several pages.
    @inlinable
    func batch(of load: Load) -> PageBatch<Key, Query>? {
        guard let (ticket, batch) = refreshBatch, ticket == load.ticket else { return nil }
        return batch
    }
}
