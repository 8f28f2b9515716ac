// The operations the engine builds new snapshots with. Each returns a new snapshot and leaves `self`
// unchanged; only the engine's newest snapshot adds pages in place to its chains.

extension PagedItems {
    /// A snapshot with `items` appended as one more page at the bottom.
    ///
    /// Writes the next slot of the bottom chain in place when this snapshot is the newest one of that
    /// chain; otherwise (an older snapshot, or after an edit) it starts a new chain.
    ///
    /// - Complexity: O(`items.count`) for the newest snapshot, amortised.
    @inlinable
    func appending(_ items: ContiguousArray<Item>) -> PagedItems {
        if let tail, tail.pageCount == tailPages {
            tail.append(items, start: tailCount)
            return PagedItems(
                head: head, headPages: headPages, headCount: headCount, body: body, tail: tail,
                tailPages: tailPages + 1, tailCount: tailCount + items.count)
        }
        let base = tailPages == 0 ? self : movingChainsIntoTree()
        let chain = PageChain<Item>()
        chain.append(items, start: 0)
        return PagedItems(
            head: base.head, headPages: base.headPages, headCount: base.headCount, body: base.body, tail: chain,
            tailPages: 1, tailCount: items.count)
    }

    /// A snapshot with `items` prepended as one more page at the top.
    ///
    /// - Complexity: O(`items.count`) for the newest snapshot, amortised.
    @inlinable
    func prepending(_ items: ContiguousArray<Item>) -> PagedItems {
        if let head, head.pageCount == headPages {
            head.append(items, start: headCount)
            return PagedItems(
                head: head, headPages: headPages + 1, headCount: headCount + items.count, body: body, tail: tail,
                tailPages: tailPages, tailCount: tailCount)
        }
        let base = headPages == 0 ? self : movingChainsIntoTree()
        let chain = PageChain<Item>()
        chain.append(items, start: 0)
        return PagedItems(
            head: chain, headPages: 1, headCount: items.count, body: base.body, tail: base.tail,
            tailPages: base.tailPages, tailCount: base.tailCount)
    }

    /// The same items with every page in the tree and no chain.
    ///
    /// The chains' pages are built into trees bottom-up, then joined with the middle tree.
    ///
    /// - Complexity: O(chained pages + log pages); each page moves into a tree once per snapshot line.
    @inlinable
    func movingChainsIntoTree() -> PagedItems {
        guard headPages > 0 || tailPages > 0 else { return self }
        let above = PageTree.build((0..<headPages).reversed().map { head.unsafelyUnwrapped.chunk(at: $0).items })
        let below = PageTree.build((0..<tailPages).map { tail.unsafelyUnwrapped.chunk(at: $0).items })
        var tree = body
        if let above { tree = tree.map { PageTree.joining(above, $0) } ?? above }
        if let below { tree = tree.map { PageTree.joining($0, below) } ?? below }
        return PagedItems(head: nil, headPages: 0, headCount: 0, body: tree, tail: nil, tailPages: 0, tailCount: 0)
    }

    /// A snapshot with page `index`'s items replaced by `items`; the page stays even when `items` is empty.
    ///
    /// - Complexity: O(`items.count` + log pages), plus moving chained pages into the tree.
    @inlinable
    func replacingPage(at index: Int, with items: ContiguousArray<Item>) -> PagedItems {
        let base = movingChainsIntoTree()
        let tree = base.body.unsafelyUnwrapped.replacingPage(at: index, with: items)
        return PagedItems(head: nil, headPages: 0, headCount: 0, body: tree, tail: nil, tailPages: 0, tailCount: 0)
    }

    /// A snapshot without its first page.
    @inlinable
    func droppingFirstPage() -> PagedItems {
        let tree = movingChainsIntoTree().body.unsafelyUnwrapped.droppingFirstPage()
        return PagedItems(head: nil, headPages: 0, headCount: 0, body: tree, tail: nil, tailPages: 0, tailCount: 0)
    }

    /// A snapshot without its last page.
    @inlinable
    func droppingLastPage() -> PagedItems {
        let tree = movingChainsIntoTree().body.unsafelyUnwrapped.droppingLastPage()
        return PagedItems(head: nil, headPages: 0, headCount: 0, body: tree, tail: nil, tailPages: 0, tailCount: 0)
    }

    /// Traps unless the parts' counts add up and the tree's invariants hold.
    ///
    /// A list of up to ``pagesCheckedInFull`` pages is checked page by page; a longer one at its first and
    /// last ``pagesCheckedAtEachEnd`` pages and at the tree's root, so that a check after every step stays
    /// O(1) in a long list. (Walking every page after every step made loading 10,000 one-item pages
    /// quadratic in debug builds.)
    @inlinable
    func checkInvariants() {
        #if STAPLER_INTERNAL_CHECKS
            precondition(headPages <= (head?.pageCount ?? 0), "PagedItems: the top chain holds the snapshot's pages")
            precondition(tailPages <= (tail?.pageCount ?? 0), "PagedItems: the bottom chain holds its pages")
            let checksEveryPage = pageCount <= Self.pagesCheckedInFull
            body?.checkInvariants(descending: checksEveryPage)
            let windows =
                checksEveryPage
                ? [0..<pageCount]
                : [0..<Self.pagesCheckedAtEachEnd, (pageCount - Self.pagesCheckedAtEachEnd)..<pageCount]
            for window in windows {
                var nextStart: Int? = window.lowerBound == 0 ? 0 : nil
                for index in window {
                    let (chunk, start) = page(at: index)
                    if let nextStart {
                        precondition(
                            start == nextStart, "PagedItems: page \(index) starts where the one before it ends")
                    }
                    nextStart = start + chunk.count
                }
                if window.upperBound == pageCount {
                    precondition(nextStart == count, "PagedItems: the pages hold count items")
                }
            }
        #endif
    }

    /// The most pages ``checkInvariants()`` walks one by one.
    @inlinable
    static var pagesCheckedInFull: Int { 512 }

    /// How many pages at each end ``checkInvariants()`` walks in a longer list.
    @inlinable
    static var pagesCheckedAtEachEnd: Int { 32 }
}
