extension PagingMachine {
    /// Starts a new generation in `mode`.
    ///
    /// It disposes every load in flight (their answers are never applied) and loads the generation's
    /// first page; the rows shown stay until it commits. With `jumpKey`, that page is the one of
    /// `jumpKey` and the opening key stays (a jump). `showsQueryList` says the rows shown are already
    /// `newQuery`'s (a list of the query cache), so a refetch of the first page may merge with them.
    @inlinable
    mutating func refresh(
        _ mode: RefreshMode<Key>, query newQuery: Query?, startingAt jumpKey: Key? = nil,
        showsQueryList: Bool = false, _ effects: inout Effects
    ) {
        var key = jumpKey ?? openingKey
        var plan: RefreshProgress?
        var parallel: Int?
        switch mode {
        case .restart:
            break
        case .open(let opening):
            openingKey = opening
            key = opening
        case .reloadAll:
            if hasList, list.pageKeys.count > 0 {
                // From the page the list was opened at (the shown page nearest to it once a bound dropped
                // it), down and then up: keys a list paged upward with lead upward, not down.
                let pages = list.pageKeys.count
                let opening = min(max(-list.firstPageIndex, 0), pages - 1)
                key = list.pageKeys[opening].key
                plan = RefreshProgress(goal: .reloadAll(above: opening, below: pages - opening))
            }
        case .reloadAllInParallel(let maxConcurrent):
            guard maxConcurrent >= 1 else {
                fatalError("RefreshMode.reloadAllInParallel(max:): max must be at least 1, got \(maxConcurrent)")
            }
            if hasList, list.pageKeys.count > 0 {
                let pages = list.pageKeys.count
                let opening = min(max(-list.firstPageIndex, 0), pages - 1)
                key = list.pageKeys[opening].key
                plan = RefreshProgress(goal: .reloadAll(above: opening, below: pages - opening))
                if keysArePositional, pages > 1 { parallel = maxConcurrent }
            }
        case .firstPage(let pages):
            guard pages >= 0 else {
                fatalError("RefreshMode.firstPage(catchUp:): catchUp must be at least 0, got \(pages)")
            }
            if newQuery == nil || showsQueryList, let end = growingEnd {
                let page = end == .top ? 0 : list.pageKeys.count - 1
                key = list.pageKeys[page].key
                plan = RefreshProgress(goal: .firstPage(end: end, pages: pages + 1))
            }
        case .around(let index, let minimumCount):
            if hasList, !list.items.isEmpty {
                // An index outside the list is ignored: the caller's row is gone or was never there.
                guard index >= 0, index < list.items.count else { return }
                key = list.pageKeys[list.items.locate(item: index).page].key
                plan = RefreshProgress(goal: .around(rows: minimumCount, anchor: index))
            }
        }
        abandonScheduledRetry(as: .superseded, &effects)
        catchUp = nil
        if let load = refreshLane.phase.load {
            effects.cancel(load.ticket, of: .refresh)
            effects.firstPageOutcomes.append((snapshot.generation, .superseded))
        } else {
            rememberBeforeRefresh()
        }
        for edge in [PageDirection.prepend, .append] {
            if let load = self[phase: edge].load {
                effects.cancel(load.ticket, of: edge)
                effects.end(load.ticket, of: edge, as: .superseded)
            }
            self[phase: edge] = .idle
        }
        if let newQuery {
            query = newQuery
            effects.changesQuery = true
        }
        snapshot.generation &+= 1
        progress = plan
        if newQuery != nil { effects.cancelsRetry = true }
        refreshLane.autoRetries = 0
        var pageSize = configuration.pageSize
        var batch = parallel.map { PageBatch(requests: parallelRequests(), maxConcurrent: $0) }
        if progress == nil, jumpKey == nil, let initial = initialPages {
            (pageSize, progress, batch) = initialLoad(initial, at: key)
        }
        let request = Request(key: key, pageSize: pageSize, query: query, pageIndex: 0, direction: .refresh)
        startLoad(request, in: .refresh, batch: batch, &effects)
        publish(&effects)
    }

    /// Applies a page of the refresh in flight: the new list, or one more page of a refresh of several.
    @inlinable
    mutating func applyRefreshPage(
        _ page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?, of load: Load, _ effects: inout Effects
    ) {
        let request = load.request
        let used = progress?.usedKeys ?? []
        let bottomEnds = page.items.isEmpty || page.nextKey == nil
        let topEnds = page.items.isEmpty || page.previousKey == nil
        let goesUp = request.pageIndex < 0
        if !bottomEnds, !goesUp, let next = page.nextKey, next == request.key || used.contains(next) {
            return fail(.refresh, with: .repeatedKey, request: request, &effects)
        }
        if !topEnds, request.pageIndex <= 0, let previous = page.previousKey,
            previous == request.key || previous == page.nextKey || used.contains(previous)
        {
            return fail(.refresh, with: .repeatedKey, request: request, &effects)
        }
        let fresh = FreshPage(key: request.key, page: page, identities: identities)
        guard var plan = progress else {
            return commitList([fresh], anchor: nil, &effects)
        }
        plan.add(fresh, up: goesUp)
        var wanted = plan.nextLoad
        if case .firstPage(let end, let pages) = plan.goal {
            wanted = followOnKey(plan.pages, at: end, after: page, maxPages: pages).map { ($0, end == .bottom) }
        }
        guard let (key, up) = wanted else {
            var anchor: Int?
            var opening = 0
            switch plan.goal {
            case .around(_, let index): anchor = index
            case .reloadAll: opening = plan.above.count
            case .initialPages: break
            case .firstPage(let end, _): return commitMerge(plan.pages, at: end, &effects)
            }
            return commitList(plan.pages, anchor: anchor, openingPage: opening, &effects)
        }
        progress = plan
        let following = up ? (plan.above.last ?? plan.below[0]).key : nil
        let next = Request(
            key: key, pageSize: configuration.pageSize, query: query,
            pageIndex: up ? -(plan.above.count + 1) : plan.below.count,
            direction: .refresh, followingKey: following)
        startLoad(next, in: .refresh, &effects)
        publish(&effects)
    }

    /// Replaces the list with `pages` (a generation's first page, or the pages of a refresh of several,
    /// in list order), in one update; `anchor` is the row of the old list a refresh around a row kept, and
    /// `openingPage` the index of the page the list counts as opened at (the pages above it count as
    /// prepended, so a later ``RefreshMode/reloadAll`` starts there again).
    @inlinable
    mutating func commitList(_ pages: [FreshPage], anchor: Int?, openingPage: Int = 0, _ effects: inout Effects) {
        let previous = list.items
        // A new list: the keys, identities and counters of the one it replaces go.
        var newList = ShownList(query: query)
        if pages[0].identities != nil {
            // One table for the generation's rows, not one regrown (and rehashed) as it fills.
            newList.loadedIdentities.reserveCapacity(pages.reduce(0) { $0 + $1.page.items.count })
        }
        list = newList
        catchUp = nil
        fillList(with: pages, openingPage: openingPage)
        list.isShown = true
        // A page of rows all shown before still counts as rows loaded.
        list.wasEmpty = pages.allSatisfy { $0.page.items.isEmpty }
        progress = nil
        refreshUndo = nil
        for edge in [PageDirection.prepend, .append] {
            edges[edge].forgetCounters()
            edges[edge].requestedPage = false
            edges[edge].lane.autoRetries = 0
        }
        refreshLane.autoRetries = 0
        snapshot.listSerial &+= 1
        snapshot.isStale = false
        if let key = queryCache?.queryKey { queryCache?.shownKey = key }
        effects.appliesPage = true
        if !list.items.isEmpty {
            effects.previousItemCount = previous.count
            effects.itemsChange = .reloaded
            effects.anchor = anchor
        } else if !previous.isEmpty {
            effects.previousItemCount = previous.count
            effects.itemsChange = .cleared
        }
        effects.firstPageOutcomes.append((snapshot.generation, .loaded))
        publish(&effects)
    }
}

extension PagingMachine {
    /// Sets the shown list's rows, page keys, edge keys, total and metadata to those of `pages` (in list
    /// order, at least one), the page at `openingPage` being the one the list counts as opened at.
    @inlinable
    mutating func fillList(with pages: [FreshPage], openingPage: Int) {
        var items = PagedItems<Item>()
        var keys = PageKeyList<Key>()
        for fresh in pages {
            let (kept, identities) = keep(fresh.page.items, identities: fresh.identities)
            items = items.appending(kept)
            keys.append(
                PageKeys(
                    key: fresh.key, previousKey: fresh.page.previousKey, nextKey: fresh.page.nextKey,
                    identities: identities, itemsBefore: fresh.page.itemsBefore))
            list.usedKeys.insert(fresh.key)
        }
        let first = pages[0].page
        let last = pages[pages.count - 1].page
        list.top.key = first.items.isEmpty ? nil : first.previousKey
        list.bottom.key = last.items.isEmpty ? nil : last.nextKey
        if let key = list.top.key { list.usedKeys.insert(key) }
        if let key = list.bottom.key { list.usedKeys.insert(key) }
        list.items = items
        list.pageKeys = keys
        list.firstPageIndex = -openingPage
        list.wasEmpty = items.isEmpty
        list.total = last.total
        list.metadata = last.metadata
    }
}
