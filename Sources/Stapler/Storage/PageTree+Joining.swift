extension PageTree {
    /// A tree holding `pages` in order, built bottom-up: leaves of ``fanout`` pages, then their parents,
    /// and so on; `nil` when there are none.
    ///
    /// - Complexity: O(pages), with one node per ``fanout`` nodes of the level below.
    @inlinable
    static func build(_ pages: [ContiguousArray<Item>]) -> PageTree? {
        guard !pages.isEmpty else { return nil }
        var level: [PageTree] = []
        level.reserveCapacity(pages.count / fanout + 1)
        var start = 0
        while start < pages.count {
            let end = min(start + fanout, pages.count)
            level.append(PageTree(pages: ContiguousArray(pages[start..<end])))
            start = end
        }
        while level.count > 1 {
            var parents: [PageTree] = []
            parents.reserveCapacity(level.count / fanout + 1)
            var first = 0
            while first < level.count {
                let end = min(first + fanout, level.count)
                parents.append(PageTree(children: ContiguousArray(level[first..<end])))
                first = end
            }
            level = parents
        }
        return level[0]
    }

    /// `left`'s pages followed by `right`'s, sharing every node of both but one path.
    ///
    /// - Complexity: O(``fanout`` × log pages).
    @inlinable
    static func joining(_ left: PageTree, _ right: PageTree) -> PageTree {
        if left.height >= right.height {
            let (node, overflow) = left.appendingNode(right)
            guard let overflow else { return node }
            return PageTree(children: [node, overflow])
        }
        let (overflow, node) = right.prependingNode(left)
        guard let overflow else { return node }
        return PageTree(children: [overflow, node])
    }

    /// This node with `subtree` (no taller than it) added after its last page, and a new right sibling
    /// of this node's height when there was no room.
    @inlinable
    func appendingNode(_ subtree: PageTree) -> (PageTree, PageTree?) {
        if height == subtree.height { return (self, subtree) }
        if height == subtree.height + 1 {
            if children.count < Self.fanout {
                var children = self.children
                children.append(subtree)
                return (PageTree(children: children), nil)
            }
            return (self, PageTree(children: [subtree]))
        }
        let (last, overflow) = children[children.count - 1].appendingNode(subtree)
        return replacingLastChild(with: last, adding: overflow)
    }

    /// This node with `subtree` (shorter than it) added before its first page, and a new left sibling
    /// of this node's height when there was no room.
    @inlinable
    func prependingNode(_ subtree: PageTree) -> (PageTree?, PageTree) {
        if height == subtree.height + 1 {
            if children.count < Self.fanout {
                var children = self.children
                children.insert(subtree, at: 0)
                return (nil, PageTree(children: children))
            }
            return (PageTree(children: [subtree]), self)
        }
        let (overflow, first) = children[0].prependingNode(subtree)
        return replacingFirstChild(with: first, adding: overflow)
    }
}
