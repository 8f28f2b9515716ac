extension PagingReference {
    /// Applies `reply` to the request with `serial` and `key`, if it is a load the paginator waits for.
    mutating func respond(serial: Int, key: Int, with reply: Reply) {
        if mutation == .appliesStaleResponses, !pending.contains(where: { $0.serial == serial }), key > 0,
            case .page(let pageItems, _, _, _) = reply
        {
            items += pageItems
            return
        }
        guard let load = pending.first(where: { $0.serial == serial }) else { return }
        setSlot(load.direction, .idle)
        guard case .page(let pageItems, let pageTotal, let next, let previous) = reply else {
            return fail(load, retryable: true)
        }
        if configuration.model == .offset, pageTotal < 0 { return fail(load, retryable: false) }
        let (nextKey, ends) = Self.nextKey(of: pageItems, at: load.key, total: pageTotal, next: next, configuration)
        let previousKey =
            configuration.model == .offset ? (load.key > 0 ? max(0, load.key - Self.pageSize) : nil) : previous
        let topEnds = pageItems.isEmpty || previousKey == nil
        switch load.direction {
        case .refresh:
            let used = Set(chain?.pages.map(\.key) ?? [])
            let goesUp = load.step < 0
            if !ends, !goesUp, let nextKey, nextKey == load.key || used.contains(nextKey) {
                return fail(load, retryable: false)
            }
            if !topEnds, load.step <= 0, let previousKey,
                previousKey == load.key || previousKey == nextKey || used.contains(previousKey)
            {
                return fail(load, retryable: false)
            }
            let loaded = (load.key, pageItems, ends ? nil : nextKey, topEnds ? nil : previousKey)
            guard var plan = chain else { return commit([loaded], load, pageTotal) }
            if goesUp { plan.above.append(loaded) } else { plan.below.append(loaded) }
            let usedNow = used.union([load.key])
            let bottom = plan.below[plan.below.count - 1]
            let top = plan.above.last ?? plan.below[0]
            if plan.below.count < plan.targetBelow, !bottom.items.isEmpty, let next = bottom.next,
                !usedNow.contains(next)
            {
                chain = plan
                refreshSlot = .loading(
                    self.load(key: next, query: query, direction: .refresh, step: plan.below.count))
            } else if plan.above.count < plan.targetAbove, !top.items.isEmpty, let previous = top.previous,
                !usedNow.contains(previous)
            {
                chain = plan
                refreshSlot = .loading(
                    self.load(key: previous, query: query, direction: .refresh, step: -(plan.above.count + 1)))
            } else {
                commit(plan.pages, load, pageTotal, openingPage: plan.above.count)
            }
        case .append:
            // A page the bound dropped is followed by the key remembered beyond it.
            let reloaded = reloadsDropped(.append)
            if reloaded == nil, !ends, let nextKey, nextKey == load.key || usedKeys.contains(nextKey) {
                return fail(load, retryable: false)
            }
            let kept = keep(pageItems, fresh: false)
            items += kept
            pageKeys.append(load.key)
            pageRows.append(kept.count)
            self.nextKey = reloaded ?? (ends ? nil : nextKey)
            if let onward = self.nextKey { usedKeys.insert(onward) }
            retries[.append] = 0
            total = configuration.model == .offset ? pageTotal : nil
            enforceBound(afterAppend: true)
        case .prepend:
            let reloaded = reloadsDropped(.prepend)
            if reloaded == nil, !topEnds, let previousKey, previousKey == load.key || usedKeys.contains(previousKey) {
                return fail(load, retryable: false)
            }
            let kept = keep(pageItems, fresh: false)
            items.insert(contentsOf: kept, at: 0)
            pageKeys.insert(load.key, at: 0)
            pageRows.insert(kept.count, at: 0)
            bounds.pagesAboveOpening += 1
            leadingCount += kept.count
            self.previousKey = reloaded ?? (topEnds ? nil : previousKey)
            if let onward = self.previousKey { usedKeys.insert(onward) }
            retries[.prepend] = 0
            total = configuration.model == .offset ? pageTotal : nil
            enforceBound(afterAppend: false)
        }
    }

    /// The next key of a page and whether it ends the bottom, per the page model.
    static func nextKey(
        of pageItems: [Int], at key: Int, total: Int, next: Int?, _ configuration: ModelConfiguration
    ) -> (Int?, Bool) {
        switch configuration.model {
        case .offset:
            return (key + pageItems.count, pageItems.isEmpty || key + pageItems.count >= total)
        case .cursor:
            return (next, pageItems.isEmpty || next == nil)
        }
    }

    mutating func setSlot(_ direction: Direction, _ slot: Slot) {
        switch direction {
        case .refresh: refreshSlot = slot
        case .prepend: prependSlot = slot
        case .append: appendSlot = slot
        }
    }

    /// Leaves `load`'s direction failed; a retryable failure may schedule an automatic retry.
    mutating func fail(_ load: Load, retryable: Bool) {
        setSlot(load.direction, .failed(load))
        scheduleRetry(after: load.direction, retryable: retryable)
    }

    /// Replaces the list with `pages` (one, or a reload's chain), in one update.
    private mutating func commit(
        _ pages: [(key: Int, items: [Int], next: Int?, previous: Int?)], _ load: Load, _ lastTotal: Int,
        openingPage: Int = 0
    ) {
        seen = []
        items = []
        pageKeys = []
        pageRows = []
        usedKeys = []
        for page in pages {
            let kept = keep(page.items, fresh: true)
            items += kept
            pageKeys.append(page.key)
            pageRows.append(kept.count)
            usedKeys.insert(page.key)
        }
        previousKey = pages[0].previous
        nextKey = pages[pages.count - 1].next
        if let previousKey { usedKeys.insert(previousKey) }
        if let nextKey { usedKeys.insert(nextKey) }
        itemsQuery = load.query
        hasList = true
        listWasEmpty = pages.allSatisfy(\.items.isEmpty)
        chain = nil
        retries = [:]
        leadingCount = 0
        listSerial &+= 1
        secondPageRequested = false
        total = configuration.model == .offset ? lastTotal : nil
        bounds = BoundState()
        bounds.pagesAboveOpening = openingPage
        screenCaughtUp()
    }

    /// The items of a page that are shown: with deduplication, those the list has not had (the first of
    /// repeats within the page).
    private mutating func keep(_ pageItems: [Int], fresh: Bool) -> [Int] {
        guard configuration.deduplicates else { return pageItems }
        if mutation == .keepsIdentitiesAcrossRefresh, fresh { seen.formUnion(everLoaded) }
        let kept = pageItems.filter { seen.insert($0).inserted }
        everLoaded.formUnion(kept)
        return kept
    }
}
