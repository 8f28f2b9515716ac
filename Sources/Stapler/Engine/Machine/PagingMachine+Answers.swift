extension PagingMachine {
    /// Applies the page of the load with `ticket`, if that load is still current in its direction.
    @inlinable
    mutating func receiveLoaded(
        ticket: UInt64, page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?
    ) -> Effects {
        var effects = Effects()
        guard let direction = direction(of: ticket), let load = self[phase: direction].load else { return effects }
        // The request is disposed once its page is in (a page commits on the request's first value).
        effects.cancel(ticket, of: direction)
        self[phase: direction] = .idle
        if let total = page.total, total < 0 {
            fail(direction, with: .invalidTotal(total), request: load.request, &effects)
        } else {
            switch direction {
            case .refresh: applyRefreshPage(page, identities: identities, of: load, &effects)
            case _ where isCatchUp(ticket):
                applyCatchUpPage(page, identities: identities, of: load, &effects)
            case .append: applyEdgePage(page, identities: identities, at: .append, of: load, &effects)
            case .prepend: applyEdgePage(page, identities: identities, at: .prepend, of: load, &effects)
            }
        }
        effects.end(ticket, of: direction, as: self[phase: direction].error == nil ? .loaded : .failed)
        checkInvariants()
        return effects
    }

    /// Records the failure of the load with `ticket`, if that load is still current in its direction.
    @inlinable
    mutating func receiveFailed(ticket: UInt64, error: PagingError<Failure>) -> Effects {
        var effects = Effects()
        guard let direction = direction(of: ticket), let load = self[phase: direction].load else { return effects }
        effects.cancel(ticket, of: direction)
        fail(direction, with: error, request: load.request, &effects)
        effects.end(ticket, of: direction, as: .failed)
        checkInvariants()
        return effects
    }

    /// Leaves `direction` failed with `error`.
    ///
    /// `retry()` asks for `request` again. Nothing loaded is lost.
    @inlinable
    mutating func fail(
        _ direction: PageDirection, with error: PagingError<Failure>, request: Request, _ effects: inout Effects
    ) {
        if direction == .refresh, failAfterInitialPages(with: error, request: request, &effects) { return }
        failureSerial &+= 1
        self[lane: direction].phase = .failed(error, request)
        self[lane: direction].failedAt = failureSerial
        let attempt = self[lane: direction].autoRetries
        let maxAutoRetries = configuration.maxAutoRetries
        if maxAutoRetries > 0, error.isRetryable, attempt < maxAutoRetries {
            // One retry waits at a time: another direction's, replaced, leaves its failure standing.
            if let replaced = scheduledRetry, replaced.direction != direction {
                abandonScheduledRetry(as: .failed, &effects)
            }
            scheduledRetry = (direction, failureSerial)
            effects.scheduleRetry = (direction, attempt, failureSerial)
        }
        if direction == .refresh {
            // A blanked list stays blank when its refresh fails: its query is gone. Nothing is left to undo.
            refreshUndo = nil
            // With an automatic retry to come, the calls awaiting this generation wait for it too.
            if effects.scheduleRetry == nil { effects.firstPageOutcomes.append((snapshot.generation, .failed(error))) }
        } else {
            effects.laterPageError = error
        }
        publish(&effects)
    }

    /// Adds a page at the top or the bottom of the list.
    ///
    /// A page with no key further on ends that edge, and so does an empty page unless a
    /// ``PagingPolicy/noProgressLimit`` is set; a key further on that this list already used is
    /// ``PagingError/repeatedKey`` (following it would loop). Pages that add no row count towards the
    /// no-progress limit: with a limit, such a page is followed at once, by the machine itself.
    ///
    /// A page the memory bound dropped earlier is followed by the key remembered for the page beyond it,
    /// whatever the server says now. With a bound, pages beyond it are dropped in the same update.
    @inlinable
    mutating func applyEdgePage(
        _ page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?, at edge: PageDirection, of load: Load,
        _ effects: inout Effects
    ) {
        let noProgressLimit = configuration.noProgressLimit
        let appends = edge == .append
        let reloadsDropped = !list[end: edge].dropped.isEmpty
        var onward = appends ? page.nextKey : page.previousKey
        var ends = onward == nil || (page.items.isEmpty && noProgressLimit == nil)
        if reloadsDropped {
            onward = list[end: edge].dropped.pop()
            ends = onward == nil
        } else if !ends, let onward, onward == load.request.key || !list.claim(onward) {
            return fail(edge, with: .repeatedKey, request: load.request, &effects)
        }
        // The items before any local row is replaced, when there are local rows.
        let original = list.localIdentities.isEmpty ? nil : list.items
        let replacesLocalRows = replaceLocalRows(in: page.items, identities: identities)
        let (kept, keptIdentities) = keep(page.items, identities: identities)
        let idle = kept.isEmpty ? edges[edge].idlePages + 1 : 0
        edges[edge].idlePages = idle
        edges[edge].lane.autoRetries = 0
        var stoppedWithoutProgress = false
        if !ends, !reloadsDropped, idle > 0, !page.items.isEmpty || noProgressLimit != nil {
            let limit = noProgressLimit ?? PagingPolicy.duplicatePageLimit
            if idle >= limit {
                ends = true
                stoppedWithoutProgress = true
                // Claimed above, and now not followed.
                if let onward { list.usedKeys.remove(onward) }
                edges[edge].stoppedWithoutProgress = limit
            }
        }
        // Taken out, not copied: the snapshot gets the new items below, and the publication these.
        var previous = PagedItems<Item>()
        swap(&previous, &list.items)
        // A reloaded page keeps its links to the pages it was dropped beside, whatever the server says now:
        // to the loaded page, and outward to the key the edge asks for next, so that a saved list still
        // holds its pages in order and its edge still follows its end page.
        var (previousKey, nextKey) = (page.previousKey, page.nextKey)
        if reloadsDropped, !appends {
            if let below = list.pageKeys.first { nextKey = below.key }
            if !ends, let onward { previousKey = onward }
        }
        if reloadsDropped, appends {
            if let above = list.pageKeys.last { previousKey = above.key }
            if !ends, let onward { nextKey = onward }
        }
        let keys = PageKeys(
            key: load.request.key, previousKey: previousKey, nextKey: nextKey, identities: keptIdentities,
            itemsBefore: page.itemsBefore)
        let old: Range<Int>
        list[end: edge].key = ends ? nil : onward
        if appends {
            list.items = previous.appending(kept)
            list.pageKeys.append(keys)
            old = 0..<previous.count
        } else {
            list.items = previous.prepending(kept)
            list.pageKeys.prepend(keys)
            list.leadingCount += kept.count
            list.firstPageIndex -= 1
            old = kept.count..<kept.count + previous.count
        }
        if reloadsDropped {
            // The key beyond a reloaded page is a dropped page's, or the edge's before the drops: both used.
            // Any other key followed was claimed by the repeated-key check.
            list.usedKeys.insert(load.request.key)
        }
        list.total = page.total
        list.metadata = page.metadata
        effects.appliesPage = true
        // With a limit, a page that added nothing is followed at once: no new row would prompt a list to.
        if !ends, !stoppedWithoutProgress, idle > 0, noProgressLimit != nil { startEdgeLoad(edge, &effects) }
        let dropped = enforceBound(after: edge, &effects)
        let shown = dropped.top..<previous.count + kept.count - dropped.bottom
        if replacesLocalRows, let original {
            // Local rows replaced in place beside the page: published as the keyed difference of the lists.
            effects.itemsChange = .reloaded
            effects.previousItemCount = original.count
        } else if let change = Self.change(from: old, to: shown) {
            effects.itemsChange = change
            effects.previousItemCount = previous.count
        }
        publish(&effects)
    }

    /// Drops the automatic retry scheduled, if any: the calls awaiting it end as `end` (a refresh
    /// supersedes it, `cancel()` cancels it, a drop by the memory bound supersedes an edge's, and
    /// another direction's failure that takes the one retry leaves its failure standing).
    @inlinable
    mutating func abandonScheduledRetry(as end: LoadEnd, _ effects: inout Effects) {
        guard let scheduled = scheduledRetry else { return }
        scheduledRetry = nil
        effects.cancelsRetry = true
        if scheduled.direction == .refresh {
            let outcome: FirstPageOutcome<Failure> =
                switch (end, refreshLane.phase.error) {
                case (.cancelled, _): .cancelled
                case (.failed, let error?): .failed(error)
                default: .superseded
                }
            effects.firstPageOutcomes.append((snapshot.generation, outcome))
        } else {
            effects.abandonedRetry = (scheduled.direction, end)
        }
    }

    /// Requests again the failure with `serial` of `direction`, if it still stands (an automatic retry).
    @inlinable
    mutating func receiveAutoRetry(_ direction: PageDirection, serial: UInt64) -> Effects {
        var effects = Effects()
        guard let scheduled = scheduledRetry, scheduled.direction == direction, scheduled.serial == serial,
            case .failed(_, let request) = self[phase: direction]
        else { return effects }
        scheduledRetry = nil
        self[lane: direction].autoRetries += 1
        if direction == .refresh {
            // As an explicit retry of a failed refresh: the edges paging the old rows meanwhile give way.
            supersedeEdges(&effects)
            rememberBeforeRefresh()
        } else if refreshLane.phase.load != nil {
            return effects
        }
        startLoad(request, in: direction, &effects)
        publish(&effects)
        checkInvariants()
        return effects
    }

    /// Fails the load with `ticket` with ``PagingError/timedOut`` and disposes it, if it is still current.
    @inlinable
    mutating func receiveTimedOut(ticket: UInt64) -> Effects {
        var effects = Effects()
        guard let direction = direction(of: ticket), let load = self[phase: direction].load else { return effects }
        effects.cancel(ticket, of: direction)
        fail(direction, with: .timedOut, request: load.request, &effects)
        effects.end(ticket, of: direction, as: .failed)
        checkInvariants()
        return effects
    }

    /// The items of a page minus those already loaded (and repeats within the page), with their
    /// identities, when deduplicating.
    @inlinable
    mutating func keep(
        _ items: [Item], identities: [ItemIdentity]?
    ) -> (items: ContiguousArray<Item>, identities: ContiguousArray<ItemIdentity>?) {
        guard let identities else { return (ContiguousArray(items), nil) }
        var kept = ContiguousArray<Item>()
        var keptIdentities = ContiguousArray<ItemIdentity>()
        kept.reserveCapacity(items.count)
        keptIdentities.reserveCapacity(items.count)
        for (item, identity) in zip(items, identities) where list.loadedIdentities.insert(identity).inserted {
            kept.append(item)
            keptIdentities.append(identity)
        }
        return (kept, keptIdentities)
    }
}
