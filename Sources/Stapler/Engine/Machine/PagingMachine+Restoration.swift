/// The identities of a saved list's rows, page by page, and of the rows edits removed.
@usableFromInline
struct SavedIdentities {
    @usableFromInline let pages: [ContiguousArray<ItemIdentity>]
    @usableFromInline let removed: [ItemIdentity]

    /// The identities of `saved`'s rows by `identify`.
    @inlinable
    init<Item, Key, Query, Metadata>(
        of saved: PagingSavedState<Item, Key, Query, Metadata>, by identify: (Item) -> ItemIdentity
    ) {
        pages = saved.pages.map { ContiguousArray($0.items.map(identify)) }
        removed = saved.removedByEdits.map(identify)
    }
}

extension PagingMachine {
    /// What a saved state is made of, taken under the engine's lock in O(pages): the item arrays are
    /// copied out of the persistent storage afterwards, with no lock held.
    @usableFromInline
    struct SavedParts {
        @usableFromInline let shown: ShownList
        @usableFromInline let openingKey: Key
        @usableFromInline let stoppedWithoutProgress: Int?
        @usableFromInline let accessedRow: Int?

        /// The parts of `machine`'s list; `shownRow` is the row last shown, counted from the list's first
        /// page (the row the machine recorded when `nil`).
        @inlinable
        init(_ machine: PagingMachine, shownRow: Int? = nil) {
            shown = machine.list
            openingKey = machine.openingKey
            stoppedWithoutProgress = machine.edges.bottom.stoppedWithoutProgress
            accessedRow = shownRow.map { $0 + machine.list.leadingCount } ?? machine.list.accessedRow
        }

        /// The saved state of the list, for a source of page model `model`.
        ///
        /// - Complexity: O(items).
        @inlinable
        func savedState(model: PageModelKind) -> PagingSavedState<Item, Key, Query, Metadata> {
            let items = shown.items
            let pages = (0..<shown.pageKeys.count).map { index in
                SavedPage(keys: SavedPageKeys(shown.pageKeys[index]), items: Array(items.items(ofPage: index)))
            }
            let row = accessedRow.flatMap { items.indices.contains($0) ? $0 : nil }
            return PagingSavedState(
                model: model, query: shown.query, openingKey: openingKey, pages: pages,
                topEdge: SavedEdge(shown.top.key), bottomEdge: SavedEdge(shown.bottom.key),
                droppedAbove: shown.top.dropped.allPages.map(SavedPageKeys.init),
                droppedAboveEdge: SavedEdge(shown.top.dropped.edgeKey),
                droppedBelow: shown.bottom.dropped.allPages.map(SavedPageKeys.init),
                droppedBelowEdge: SavedEdge(shown.bottom.dropped.edgeKey), total: shown.total,
                metadata: shown.metadata, listWasEmpty: shown.wasEmpty,
                stoppedWithoutProgress: stoppedWithoutProgress, accessedRow: row,
                firstPageIndex: shown.firstPageIndex, removedByEdits: shown.removedByEdits)
        }
    }

    /// Shows the saved list (which ``PagingSavedState/validate()`` accepted) with no request: state
    /// `data` (or `noData`), each edge idle with the key it asks for, or ended.
    ///
    /// When deduplicating, `identities` are those of each saved page's rows and of the rows edits
    /// removed, computed by the caller with no lock held.
    ///
    /// - Complexity: O(items).
    @inlinable
    mutating func restore(
        _ saved: PagingSavedState<Item, Key, Query, Metadata>, identities: SavedIdentities?
    ) -> Effects {
        var effects = Effects()
        effects.allowsAnyMove = true
        // The saved list, built whole: nothing of the list before it stays.
        var restored = ShownList(query: saved.query)
        var items = PagedItems<Item>()
        var keys = PageKeyList<Key>()
        for (index, page) in saved.pages.enumerated() {
            var pageKeys = page.keys.pageKeys
            if let identities {
                pageKeys.identities = identities.pages[index]
                restored.loadedIdentities.formUnion(identities.pages[index])
            }
            items = items.appending(ContiguousArray(page.items))
            keys.append(pageKeys)
            restored.usedKeys.insert(page.keys.key)
        }
        if let identities { restored.loadedIdentities.formUnion(identities.removed) }
        restored.removedByEdits = identities == nil ? [] : saved.removedByEdits
        restored.top.dropped = DroppedPages(saved.droppedAbove.map(\.pageKeys), edgeKey: saved.droppedAboveEdge.key)
        restored.bottom.dropped = DroppedPages(saved.droppedBelow.map(\.pageKeys), edgeKey: saved.droppedBelowEdge.key)
        restored.top.key = saved.topEdge.key
        restored.bottom.key = saved.bottomEdge.key
        if let key = restored.top.key { restored.usedKeys.insert(key) }
        if let key = restored.bottom.key { restored.usedKeys.insert(key) }
        restored.items = items
        restored.pageKeys = keys
        restored.isShown = true
        restored.wasEmpty = saved.listWasEmpty
        restored.total = saved.total
        restored.metadata = saved.metadata
        restored.lastAccessedRow = saved.lastShownRow.flatMap { items.indices.contains($0) ? $0 : nil }
        restored.firstPageIndex = saved.firstPageIndex
        list = restored
        openingKey = saved.openingKey
        query = saved.query
        refreshUndo?.query = saved.query
        edges.bottom.stoppedWithoutProgress = saved.stoppedWithoutProgress
        edges.bottom.requestedPage = keys.count > 1
        // With a query cache, the restored list is the saved query's: leaving that query keeps it.
        if let key = queryCache?.queryKey { queryCache?.shownKey = key }
        snapshot.listSerial &+= 1
        snapshot.isStale = true
        if !items.isEmpty {
            effects.itemsChange = .reloaded
            effects.previousItemCount = 0
        }
        effects.appliesPage = true
        publish(&effects)
        checkInvariants()
        return effects
    }
}
