extension PagingMachine {
    /// Adds `rows`, local rows, at `end` of the list shown: appended to the last page at the bottom,
    /// prepended to the first page at the top, with no index to race with deliveries.
    ///
    /// With deduplication, rows whose identity the list has had are skipped, and the others are
    /// remembered as local: a page that brings a row of the same identity later replaces the local row in
    /// place (``replaceLocalRows(in:identities:)``) instead of showing it twice.
    ///
    /// - Returns: The rows the list gained, or `nil` when every row was shown already.
    /// - Complexity: O(rows + page size + log pages).
    @inlinable
    mutating func insertLocalRows(_ rows: [Item], identities: [ItemIdentity]?, at end: ListEnd) -> Range<Int>? {
        var added = ContiguousArray<Item>()
        var addedIdentities = ContiguousArray<ItemIdentity>()
        if let identities {
            for (row, identity) in zip(rows, identities) where list.loadedIdentities.insert(identity).inserted {
                added.append(row)
                addedIdentities.append(identity)
                list.localIdentities.insert(identity)
            }
        } else {
            added = ContiguousArray(rows)
        }
        guard !added.isEmpty else { return nil }
        let items = list.items
        let page = end == .top ? 0 : items.pageCount - 1
        var edited = items.items(ofPage: page)
        if end == .top {
            edited.insert(contentsOf: added, at: 0)
            list.pageKeys[page].identities?.insert(contentsOf: addedIdentities, at: 0)
        } else {
            edited.append(contentsOf: added)
            list.pageKeys[page].identities?.append(contentsOf: addedIdentities)
        }
        list.items = items.replacingPage(at: page, with: edited)
        return end == .top ? 0..<added.count : items.count..<items.count + added.count
    }

    /// Replaces, in place, each local row whose identity a page just brought, with the page's row; the
    /// page's copy is not added again (deduplication drops it).
    ///
    /// - Returns: Whether any row was replaced.
    /// - Complexity: O(items) when the page brings a local row's identity, else O(page size).
    @inlinable
    mutating func replaceLocalRows(in pageItems: [Item], identities: [ItemIdentity]?) -> Bool {
        guard !list.localIdentities.isEmpty, let identities else { return false }
        var replaced = false
        for (item, identity) in zip(pageItems, identities) where list.localIdentities.contains(identity) {
            list.localIdentities.remove(identity)
            guard let index = index(ofIdentity: identity) else { continue }
            let (page, rows, start) = list.items.locate(item: index)
            var edited = rows
            edited[index - start] = item
            list.items = list.items.replacingPage(at: page, with: edited)
            replaced = true
        }
        return replaced
    }
}
