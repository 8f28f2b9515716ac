/// The keys of the pages a memory bound dropped at one end of the list, nearest first.
///
/// Scrolling back reloads each with the key it had when it was loaded, never a key computed again
/// (an offset source with short pages would compute a wrong one), and the page after the last one
/// reloaded asks with the key that edge had before any drop.
@usableFromInline
struct DroppedPages<Key: Sendable> {
    /// The dropped pages' keys, the farthest from the list first: the last is the one to reload next.
    @usableFromInline var pages: [PageKeys<Key>] = []
    /// The key the edge asked for when the first of these pages was dropped (`nil`: that end was reached).
    @usableFromInline var edgeKey: Key?

    @inlinable
    init() {}

    /// Dropped pages restored from a saved list: `pages` farthest first, and the edge's key before them.
    @inlinable
    init(_ pages: [PageKeys<Key>], edgeKey: Key?) {
        self.pages = pages
        self.edgeKey = edgeKey
    }

    @inlinable
    var isEmpty: Bool { pages.isEmpty }

    /// The key the edge asks for now: the nearest dropped page's.
    @inlinable
    var nextKey: Key? { pages.last?.key }

    /// Remembers a page dropped at this end, while the edge asked for `edgeKey`.
    @inlinable
    mutating func push(_ page: PageKeys<Key>, edgeKey: Key?) {
        if pages.isEmpty { self.edgeKey = edgeKey }
        pages.append(page)
    }

    /// Forgets the nearest dropped page (it was reloaded) and returns the key the edge asks for next.
    @inlinable
    mutating func pop() -> Key? {
        pages.removeLast()
        return pages.last?.key ?? edgeKey
    }
}
