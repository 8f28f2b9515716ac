extension PagingMachine {
    /// Replaces the rows of the shown list with `pages`, in list order, as one update: the pages a source
    /// read again, together, over the extent the list shows (and, for each load of `ending`, the extent
    /// that load asked for).
    ///
    /// Unlike ``commitList(_:anchor:openingPage:_:)`` it starts no generation: the query, the loads in
    /// flight (but those of `ending`, which end as loaded) and the key the list was opened at stay; the
    /// pages a memory bound dropped are forgotten, each end asking next beside the new rows. Each end keeps its state: it is ended when the new edge page has no
    /// key further on. The update is published as ``ItemsChange/reloaded`` with the rows before it, so
    /// that items with an identity publish a keyed difference.
    ///
    /// Nothing happens (and nothing is published) without a shown list, while a refresh loads, or with
    /// no page.
    @inlinable
    mutating func receiveShownPages(_ pages: [FreshPage], ending tickets: [UInt64]) -> Effects {
        var effects = Effects()
        guard hasList, refreshLane.phase.load == nil, catchUp == nil, !pages.isEmpty else { return effects }
        for ticket in tickets {
            guard let direction = direction(of: ticket), direction != .refresh else { continue }
            effects.cancel(ticket, of: direction)
            self[phase: direction] = .idle
            effects.end(ticket, of: direction, as: .loaded)
        }
        let previous = list.items
        let opening = min(max(-list.firstPageIndex, 0), pages.count - 1)
        list.loadedIdentities = []
        list.usedKeys = []
        // Pages a memory bound dropped are forgotten: the new pages' edge keys (the positions beside the
        // first and last rows read) reach their rows as they are now, where the dropped pages' own keys
        // would read them as they were placed (skipping rows inserted there since, repeating moved ones).
        list.top.dropped = DroppedPages()
        list.bottom.dropped = DroppedPages()
        fillList(with: pages, openingPage: opening)
        snapshot.listSerial &+= 1
        snapshot.isStale = false
        effects.appliesPage = true
        effects.previousItemCount = previous.count
        if !list.items.isEmpty {
            effects.itemsChange = .reloaded
        } else if !previous.isEmpty {
            effects.itemsChange = .cleared
        }
        // The store's rows decide: an empty list may fill, and a full one empty, in one update.
        effects.allowsAnyMove = true
        publish(&effects)
        checkInvariants()
        return effects
    }
}
