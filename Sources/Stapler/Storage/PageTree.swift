/// A persistent B-tree of pages: the part of a snapshot's storage that can be edited in the middle.
///
/// Nodes are immutable and shared by every snapshot that reaches them; each operation copies only the
/// path from the root to the page it touches, so adding or dropping a page at either end, or replacing
/// one page's items, costs O(page size + ``fanout`` × log pages) whatever snapshots are kept. Every node
/// records how many items and pages lie below it, so finding the page of an item index, or the page of
/// a page index, takes one walk down.
///
/// The tree is balanced by construction: pages are only added at the ends (an end node that is full
/// gets a new sibling, and a full root a new parent), and removing a page removes nodes that become
/// empty and collapses a root with one child.
@usableFromInline
final class PageTree<Item: Sendable>: Sendable {
    /// How many pages a leaf holds and how many children an inner node holds, at most.
    @inlinable
    static var fanout: Int { 16 }

    /// 0 for a leaf (it holds pages); one more than its children's for an inner node.
    @usableFromInline let height: Int
    /// The items below this node.
    @usableFromInline let count: Int
    /// The pages below this node.
    @usableFromInline let pageCount: Int
    /// A leaf's pages, in order (empty for an inner node).
    @usableFromInline let pages: ContiguousArray<ContiguousArray<Item>>
    /// An inner node's children, in order (empty for a leaf).
    @usableFromInline let children: ContiguousArray<PageTree>

    @inlinable
    init(pages: ContiguousArray<ContiguousArray<Item>>) {
        height = 0
        self.pages = pages
        children = []
        pageCount = pages.count
        var count = 0
        for page in pages { count += page.count }
        self.count = count
    }

    @inlinable
    init(children: ContiguousArray<PageTree>) {
        height = children[0].height + 1
        self.children = children
        pages = []
        var count = 0
        var pageCount = 0
        for child in children {
            count += child.count
            pageCount += child.pageCount
        }
        self.count = count
        self.pageCount = pageCount
    }

    // MARK: Reading

    /// The page with index `page` and the index of its first item.
    ///
    /// - Complexity: O(``fanout`` × log pages).
    @inlinable
    func page(at page: Int) -> (items: ContiguousArray<Item>, start: Int) {
        var node = self
        var page = page
        var start = 0
        while node.height > 0 {
            for child in node.children {
                if page < child.pageCount {
                    node = child
                    break
                }
                page -= child.pageCount
                start += child.count
            }
        }
        for index in 0..<page { start += node.pages[index].count }
        return (node.pages[page], start)
    }

    /// The page holding item `index`: its page index, its items and the index of its first item.
    ///
    /// - Complexity: O(``fanout`` × log pages).
    @inlinable
    func locate(item index: Int) -> (page: Int, items: ContiguousArray<Item>, start: Int) {
        var node = self
        var offset = index
        var page = 0
        while node.height > 0 {
            for child in node.children {
                if offset < child.count {
                    node = child
                    break
                }
                offset -= child.count
                page += child.pageCount
            }
        }
        for items in node.pages {
            if offset < items.count { return (page, items, index - offset) }
            offset -= items.count
            page += 1
        }
        preconditionFailure("PageTree: item \(index) is not below this node of \(count) items")
    }

    // MARK: Adding pages at the ends

    /// This tree with `items` as a new last page.
    @inlinable
    func appending(_ items: ContiguousArray<Item>) -> PageTree {
        let (node, overflow) = appendingPage(items)
        guard let overflow else { return node }
        return PageTree(children: [node, overflow])
    }

    /// This tree with `items` as a new first page.
    @inlinable
    func prepending(_ items: ContiguousArray<Item>) -> PageTree {
        let (overflow, node) = prependingPage(items)
        guard let overflow else { return node }
        return PageTree(children: [overflow, node])
    }

    /// This node with the page added last, and a new right sibling of the same height when it was full.
    @inlinable
    func appendingPage(_ items: ContiguousArray<Item>) -> (PageTree, PageTree?) {
        if height == 0 {
            if pages.count < Self.fanout {
                var pages = self.pages
                pages.append(items)
                return (PageTree(pages: pages), nil)
            }
            return (self, PageTree(pages: [items]))
        }
        let (last, overflow) = children[children.count - 1].appendingPage(items)
        return replacingLastChild(with: last, adding: overflow)
    }

    /// This inner node with its last child replaced by `last` and `overflow` (a new sibling of that
    /// child) added after it, and a new right sibling of this node's height when there was no room.
    @inlinable
    func replacingLastChild(with last: PageTree, adding overflow: PageTree?) -> (PageTree, PageTree?) {
        var children = self.children
        children[children.count - 1] = last
        guard let overflow else { return (PageTree(children: children), nil) }
        if children.count < Self.fanout {
            children.append(overflow)
            return (PageTree(children: children), nil)
        }
        return (PageTree(children: children), PageTree(children: [overflow]))
    }

    /// This inner node with its first child replaced by `first` and `overflow` (a new sibling of that
    /// child) added before it, and a new left sibling of this node's height when there was no room.
    @inlinable
    func replacingFirstChild(with first: PageTree, adding overflow: PageTree?) -> (PageTree?, PageTree) {
        var children = self.children
        children[0] = first
        guard let overflow else { return (nil, PageTree(children: children)) }
        if children.count < Self.fanout {
            children.insert(overflow, at: 0)
            return (nil, PageTree(children: children))
        }
        return (PageTree(children: [overflow]), PageTree(children: children))
    }

    /// This node with the page added first, and a new left sibling of the same height when it was full.
    @inlinable
    func prependingPage(_ items: ContiguousArray<Item>) -> (PageTree?, PageTree) {
        if height == 0 {
            if pages.count < Self.fanout {
                var pages = self.pages
                pages.insert(items, at: 0)
                return (nil, PageTree(pages: pages))
            }
            return (PageTree(pages: [items]), self)
        }
        let (overflow, first) = children[0].prependingPage(items)
        return replacingFirstChild(with: first, adding: overflow)
    }

    // MARK: Removing and replacing pages

    /// This tree without its first page, or `nil` if that was its only page.
    @inlinable
    func droppingFirstPage() -> PageTree? {
        removingPage(at: 0)?.collapsed
    }

    /// This tree without its last page, or `nil` if that was its only page.
    @inlinable
    func droppingLastPage() -> PageTree? {
        removingPage(at: pageCount - 1)?.collapsed
    }

    /// This tree with page `page`'s items replaced by `items` (the page stays, even when `items` is empty).
    ///
    /// - Complexity: O(`items.count` + ``fanout`` × log pages).
    @inlinable
    func replacingPage(at page: Int, with items: ContiguousArray<Item>) -> PageTree {
        if height == 0 {
            var pages = self.pages
            pages[page] = items
            return PageTree(pages: pages)
        }
        var page = page
        var children = self.children
        for index in children.indices {
            if page < children[index].pageCount {
                children[index] = children[index].replacingPage(at: page, with: items)
                return PageTree(children: children)
            }
            page -= children[index].pageCount
        }
        preconditionFailure("PageTree: page \(page) is not below this node of \(pageCount) pages")
    }

    /// This node without page `page`, or `nil` if nothing is left; empty children are removed.
    @inlinable
    func removingPage(at page: Int) -> PageTree? {
        if height == 0 {
            guard pages.count > 1 else { return nil }
            var pages = self.pages
            pages.remove(at: page)
            return PageTree(pages: pages)
        }
        var page = page
        var children = self.children
        for index in children.indices {
            if page < children[index].pageCount {
                if let child = children[index].removingPage(at: page) {
                    children[index] = child
                } else {
                    children.remove(at: index)
                }
                return children.isEmpty ? nil : PageTree(children: children)
            }
            page -= children[index].pageCount
        }
        preconditionFailure("PageTree: page \(page) is not below this node of \(pageCount) pages")
    }

    /// The node itself, or its only descendant below a chain of single-child inner nodes.
    @inlinable
    var collapsed: PageTree {
        var node = self
        while node.height > 0 && node.children.count == 1 { node = node.children[0] }
        return node
    }

    // MARK: Invariants

    /// Traps unless every node's counts are the sums of its children's and every leaf is at height 0.
    ///
    /// - Parameter descending: Whether the children are checked too, down to the leaves; without it only
    ///   this node is, so that the check costs O(``fanout``).
    @inlinable
    func checkInvariants(descending: Bool = true) {
        #if STAPLER_INTERNAL_CHECKS
            if height == 0 {
                precondition(children.isEmpty && !pages.isEmpty, "PageTree: a leaf holds pages only")
                precondition(pages.count <= Self.fanout, "PageTree: a leaf holds at most fanout pages")
                precondition(count == pages.reduce(0) { $0 + $1.count }, "PageTree: a leaf's count is its pages'")
            } else {
                precondition(pages.isEmpty && !children.isEmpty, "PageTree: an inner node holds children only")
                precondition(children.count <= Self.fanout, "PageTree: a node holds at most fanout children")
                for child in children {
                    precondition(child.height == height - 1, "PageTree: every leaf is at the same depth")
                    if descending { child.checkInvariants() }
                }
                precondition(
                    count == children.reduce(0) { $0 + $1.count }
                        && pageCount == children.reduce(0) { $0 + $1.pageCount },
                    "PageTree: an inner node's counts are its children's")
            }
        #endif
    }
}
