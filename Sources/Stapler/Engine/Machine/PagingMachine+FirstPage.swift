extension PagingMachine {
    /// The end a refetch of the first page reloads (``RefreshMode/firstPage(catchUp:)``), or `nil` when it
    /// cannot merge there and restarts instead.
    ///
    /// It is the end that has no page beyond it while the other end has (the top of a feed, whose newest
    /// page has no key above it; the bottom of a chat opened at its newest page and paged older); when both
    /// ends or neither can page on, the end of the page the list was opened at (the bottom when that is
    /// the last of several pages shown, else the top). There is none without rows to merge with, without
    /// identities to merge by, or while a memory bound keeps pages dropped beyond that end (the page
    /// there is not the one shown).
    @inlinable
    var growingEnd: ListEnd? {
        guard hasList, list.pageKeys.count > 0, list.pageKeys[0].identities != nil, !list.items.isEmpty else {
            return nil
        }
        let pages = list.pageKeys.count
        let opening = -list.firstPageIndex
        let end: ListEnd
        switch (list.top.key == nil, list.bottom.key == nil) {
        case (true, false): end = .top
        case (false, true): end = .bottom
        default: end = pages > 1 && opening >= pages - 1 ? .bottom : .top
        }
        guard list[end: end.direction].dropped.isEmpty else { return nil }
        return end
    }

    /// Commits a refetch of the first page: merges `pages` (in list order) loaded at `end` with the rows
    /// shown, by identity (``mergeFresh(_:at:_:)``, the catch-up's merge), counts the page at `end` as the
    /// one the list was opened at, and ends the refresh as loaded.
    ///
    /// Fresh pages without a row at the top of the list are the server's whole list there: they replace
    /// the rows, as a restart would.
    @inlinable
    mutating func commitMerge(_ pages: [FreshPage], at end: ListEnd, _ effects: inout Effects) {
        if end == .top, pages.allSatisfy({ $0.page.items.isEmpty }) {
            return commitList(pages, anchor: nil, &effects)
        }
        progress = nil
        refreshUndo = nil
        refreshLane.autoRetries = 0
        snapshot.isStale = false
        if let key = queryCache?.queryKey { queryCache?.shownKey = key }
        mergeFresh(pages, at: end, &effects)
        // The page refetched is the one the list counts as opened at, so a later reload of every page
        // starts there (a cursor feed's pages have no key above its top).
        list.firstPageIndex = end == .top ? 0 : -(list.pageKeys.count - 1)
        effects.firstPageOutcomes.append((snapshot.generation, .loaded))
        publish(&effects)
    }
}
