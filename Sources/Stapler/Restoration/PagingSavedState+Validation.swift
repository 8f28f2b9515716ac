extension PagingSavedState {
    /// Checks that the saved list is one a paginator could have saved: at least one page, each page
    /// following the one above it (its key is where the page above led, or the page above is where it
    /// leads up), no key twice, edges that ask for the pages dropped beyond them or for what their end page leads to, no negative
    /// total.
    ///
    /// - Throws: The ``RestoreError`` of the first check that fails.
    @inlinable
    func validate() throws(RestoreError) {
        guard !pages.isEmpty else { throw .noPages }
        if let total, total < 0 { throw .invalidTotal(total) }
        // Positions past any list's length could overflow the arithmetic of page indices and slots.
        let limit = 1 << 40
        guard (-limit...limit).contains(firstPageIndex), pages.allSatisfy({ ($0.keys.itemsBefore ?? 0) <= limit })
        else {
            throw .corrupt("a page position past \(limit)")
        }
        for index in pages.indices.dropFirst() {
            let above = pages[index - 1].keys
            let below = pages[index].keys
            guard above.nextKey == .key(below.key) || below.previousKey == .key(above.key) else {
                throw .pagesOutOfOrder(index: index)
            }
        }
        var keys = Set<Key>()
        for key in pages.map(\.keys.key) + droppedAbove.map(\.key) + droppedBelow.map(\.key) {
            guard keys.insert(key).inserted else { throw .repeatedKey }
        }
        if let nearest = droppedAbove.last, topEdge != .key(nearest.key) { throw .droppedPagesDetached }
        if let nearest = droppedBelow.last, bottomEdge != .key(nearest.key) { throw .droppedPagesDetached }
        // With nothing dropped beyond it, an edge that asks for a key asks for the one its end page leads
        // to: another key would load a page that does not follow the list (a gap no save could restore).
        if droppedAbove.isEmpty, case .key = topEdge, pages[0].keys.previousKey != topEdge { throw .edgeDetached }
        if droppedBelow.isEmpty, case .key = bottomEdge, pages[pages.count - 1].keys.nextKey != bottomEdge {
            throw .edgeDetached
        }
    }
}
