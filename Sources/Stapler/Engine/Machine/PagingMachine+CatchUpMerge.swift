extension PagingMachine {
    /// A page of the list being merged: its keys and its rows.
    @usableFromInline
    typealias MergedPage = (keys: PageKeys<Key>, rows: ContiguousArray<Item>)

    /// Merges fresh pages loaded at `end` (in list order) with the rows shown, by identity, in one update:
    /// the one merge of a catch-up (``receiveCatchUp(at:maxPages:reason:)``) and of a refetch of the first
    /// page (``RefreshMode/firstPage(catchUp:)``).
    ///
    /// The fresh pages cover the list from the row where they meet it to their end (at the bottom, from
    /// the first fresh row shown down; at the top, from the top down to the last fresh row shown). Rows
    /// shown in that stretch that the fresh pages lack are gone (the fresh pages prove it); rows beyond it
    /// stay, but for copies of fresh rows, which go; local rows the server has not returned yet stay at
    /// their end of the list; a local row the server returned is replaced by its copy. When the fresh
    /// pages meet no row shown, they replace the rows (local rows kept), so that no gap hides between the
    /// two. The edge asks next for the key the fresh pages give beyond it (none: it stays ended).
    ///
    /// - Complexity: O(items + fresh rows).
    @inlinable
    mutating func mergeFresh(_ fresh: [FreshPage], at end: ListEnd, _ effects: inout Effects) {
        let freshIdentities = Set(fresh.lazy.flatMap { $0.identities ?? [] })
        let edgePage = end == .bottom ? fresh[fresh.count - 1].page : fresh[0].page
        guard !freshIdentities.isEmpty else {
            // Nothing there: the rows stay, and the edge asks for what the server names beyond, if anything.
            let beyond = end == .bottom ? edgePage.nextKey : edgePage.previousKey
            setEdgeKey(end, to: edgePage.items.isEmpty ? nil : beyond)
            return publish(&effects)
        }
        let meeting = meetingRow(of: fresh, at: end)
        let previous = list.items
        // The stretch the fresh pages cover; `nil` covers every row (they meet none).
        let covered: ClosedRange<Int>? = meeting.map { end == .bottom ? $0...Int.max : 0...$0 }
        var kept: [MergedPage] = []
        var locals = (rows: ContiguousArray<Item>(), identities: ContiguousArray<ItemIdentity>())
        var row = 0
        var pagesGone = 0
        for page in 0..<list.pageKeys.count {
            var keys = list.pageKeys[page]
            let identities = keys.identities ?? []
            var rows = ContiguousArray<Item>()
            var rowIdentities = ContiguousArray<ItemIdentity>()
            for (item, identity) in zip(previous.items(ofPage: page), identities) {
                defer { row += 1 }
                if freshIdentities.contains(identity) { continue }
                if covered?.contains(row) ?? true {
                    if list.localIdentities.contains(identity) {
                        locals.rows.append(item)
                        locals.identities.append(identity)
                    } else {
                        list.loadedIdentities.remove(identity)
                    }
                    continue
                }
                rows.append(item)
                rowIdentities.append(identity)
            }
            guard !rows.isEmpty else {
                pagesGone += 1
                continue
            }
            keys.identities = rowIdentities
            kept.append((keys, rows))
        }
        var merged = fresh.map { page -> MergedPage in
            let identities = ContiguousArray(page.identities ?? [])
            return (
                PageKeys(
                    key: page.key, previousKey: page.page.previousKey, nextKey: page.page.nextKey,
                    identities: identities, itemsBefore: page.page.itemsBefore),
                ContiguousArray(page.page.items)
            )
        }
        let edge = end == .bottom ? merged.count - 1 : 0
        if end == .bottom {
            merged[edge].rows.append(contentsOf: locals.rows)
            merged[edge].keys.identities?.append(contentsOf: locals.identities)
        } else {
            merged[edge].rows.insert(contentsOf: locals.rows, at: 0)
            merged[edge].keys.identities?.insert(contentsOf: locals.identities, at: 0)
        }
        let freshRows = merged.reduce(0) { $0 + $1.rows.count }
        if meeting == nil {
            install(merged)
            list.forgetDroppedPages()
            list.leadingCount = 0
            snapshot.listSerial &+= 1
            list.firstPageIndex = end == .bottom ? -(merged.count - 1) : 0
        } else if end == .bottom {
            install(kept + merged)
        } else {
            install(merged + kept)
            // The rows below the merged stretch moved by the rows that replaced those above them.
            list.leadingCount += freshRows - (meeting.map { $0 + 1 } ?? 0)
            list.firstPageIndex -= merged.count - pagesGone
        }
        list.loadedIdentities.formUnion(freshIdentities)
        list.localIdentities.subtract(freshIdentities)
        let top = merged[0].keys
        let bottom = merged[merged.count - 1].keys
        if end == .bottom || meeting == nil { list.bottom.key = bottom.nextKey }
        if end == .top || meeting == nil { list.top.key = top.previousKey }
        list.usedKeys = Set((0..<list.pageKeys.count).map { list.pageKeys[$0].key })
        if let key = list.top.key { list.usedKeys.insert(key) }
        if let key = list.bottom.key { list.usedKeys.insert(key) }
        edges[end.direction].idlePages = 0
        edges[end.direction].stoppedWithoutProgress = nil
        list.total = edgePage.total
        list.metadata = edgePage.metadata
        list.wasEmpty = list.items.isEmpty
        effects.appliesPage = true
        effects.previousItemCount = previous.count
        effects.itemsChange = .reloaded
        publish(&effects)
    }

    /// Shows `pages` as the list's pages, in order.
    @inlinable
    mutating func install(_ pages: [MergedPage]) {
        var items = PagedItems<Item>()
        var keys = PageKeyList<Key>()
        for page in pages {
            items = items.appending(page.rows)
            keys.append(page.keys)
        }
        list.items = items
        list.pageKeys = keys
    }

    /// Sets the key the edge at `end` asks for next (`nil`: that edge ended).
    @inlinable
    mutating func setEdgeKey(_ end: ListEnd, to key: Key?) {
        list[end: end.direction].key = key
        if let key { list.usedKeys.insert(key) }
    }
}
