extension PagingMachine {
    /// Starts a new generation in `mode`: disposes every load in flight (their answers are never
    /// applied) and loads the generation's first page; the rows shown stay until it commits.
    @inlinable
    mutating func refresh(_ mode: RefreshMode<Key>, query newQuery: Query?, _ effects: inout Effects) {
        var key = openingKey
        var reloading: ReloadProgress?
        switch mode {
        case .restart:
            break
        case .open(let opening):
            openingKey = opening
            key = opening
        case .reloadAll:
            if hasList, let top = pageKeys.first {
                key = top.key
                reloading = ReloadProgress(target: pageKeys.count)
            }
        case .around(let index):
            if hasList, !snapshot.items.isEmpty {
                // An index outside the list is ignored: the caller's row is gone or was never there.
                guard index >= 0, index < snapshot.items.count else { return }
                key = pageKeys[snapshot.items.locate(item: index).page].key
            }
        }
        if let load = refreshSlot.load {
            effects.cancel(load.ticket, of: .refresh)
            effects.firstPageOutcomes.append((snapshot.generation, .superseded))
        } else {
            slotBeforeRefresh = refreshSlot
            queryBeforeRefresh = query
        }
        for edge in [PageDirection.prepend, .append] {
            if let load = self[slot: edge].load { effects.cancel(load.ticket, of: edge) }
            self[slot: edge] = .idle
        }
        if let newQuery {
            query = newQuery
            effects.changesQuery = true
        }
        snapshot.generation &+= 1
        reload = reloading
        let request = Request(key: key, pageSize: pageSize, query: query, pageIndex: 0, direction: .refresh)
        startLoad(request, in: .refresh, &effects)
        publish(&effects)
    }

    /// Applies a page of the refresh in flight: the new list, or one more page of a reload-all.
    @inlinable
    mutating func applyRefreshPage(
        _ page: Page<Item, Key, Metadata>, identities: [AnyHashable]?, of load: Load, _ effects: inout Effects
    ) {
        let request = load.request
        let bottomEnds = page.items.isEmpty || page.nextKey == nil
        let topEnds = page.items.isEmpty || page.previousKey == nil || request.pageIndex > 0
        if !bottomEnds, let next = page.nextKey, next == request.key || reloadUses(next) {
            return fail(.refresh, with: .repeatedKey, request: request, &effects)
        }
        if !topEnds, let previous = page.previousKey, previous == request.key || previous == page.nextKey {
            return fail(.refresh, with: .repeatedKey, request: request, &effects)
        }
        guard var progress = reload else {
            return commitList([page], identities: [identities], firstKey: request.key, &effects)
        }
        progress.pages.append(page)
        progress.identities.append(identities)
        if bottomEnds || progress.pages.count >= progress.target {
            let firstKey = pageKeys.first?.key ?? request.key
            return commitList(progress.pages, identities: progress.identities, firstKey: firstKey, &effects)
        }
        reload = progress
        let next = Request(
            key: page.nextKey.unsafelyUnwrapped, pageSize: pageSize, query: query,
            pageIndex: progress.pages.count, direction: .refresh)
        startLoad(next, in: .refresh, &effects)
        publish(&effects)
    }

    /// Whether a reload-all in progress already asked for `key`.
    @inlinable
    func reloadUses(_ key: Key) -> Bool {
        guard let reload else { return false }
        if pageKeys.first?.key == key { return true }
        return reload.pages.contains { $0.nextKey == key }
    }

    /// Replaces the list with `pages` (a generation's first page, or every page of a reload-all), the
    /// first of which was requested with `firstKey`, in one update.
    @inlinable
    mutating func commitList(
        _ pages: [Page<Item, Key, Metadata>], identities: [[AnyHashable]?], firstKey: Key, _ effects: inout Effects
    ) {
        let previous = snapshot.items
        loadedIdentities = []
        usedKeys = []
        var items = PagedItems<Item>()
        var keys = PageKeyList<Key>()
        var key = firstKey
        for (page, pageIdentities) in zip(pages, identities) {
            items = items.appending(keep(page.items, identities: pageIdentities))
            keys.append(
                PageKeys(key: key, previousKey: keys.count == 0 ? page.previousKey : nil, nextKey: page.nextKey))
            usedKeys.insert(key)
            if let next = page.nextKey { key = next }
        }
        let first = pages[0]
        let last = pages[pages.count - 1]
        let listIsEmpty = first.items.isEmpty
        topKey = listIsEmpty ? nil : first.previousKey
        bottomKey = last.items.isEmpty ? nil : last.nextKey
        if let topKey { usedKeys.insert(topKey) }
        if let bottomKey { usedKeys.insert(bottomKey) }
        snapshot.items = items
        pageKeys = keys
        hasList = true
        listWasEmpty = listIsEmpty
        listQuery = query
        secondPageRequested = false
        reload = nil
        snapshot.leadingCount = 0
        snapshot.listSerial &+= 1
        snapshot.total = last.total
        snapshot.metadata = last.metadata
        effects.appliesPage = true
        if !items.isEmpty {
            effects.previousItems = previous
            effects.itemsChange = .reloaded
        } else if !previous.isEmpty {
            effects.previousItems = previous
            effects.itemsChange = .cleared
        }
        effects.firstPageOutcomes.append((snapshot.generation, .loaded))
        publish(&effects)
    }
}
