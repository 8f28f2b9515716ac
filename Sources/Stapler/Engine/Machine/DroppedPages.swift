/// The keys of the pages a memory bound dropped at one end of the list, nearest last.
///
/// Scrolling back reloads each with the key it had when it was loaded, never a key computed again
/// (an offset source with short pages would compute a wrong one), and the page after the last one
/// reloaded asks with the key that edge had before any drop.
///
/// The memory it needs does not grow with the pages dropped when their keys are regular: three or more
/// pages in a row whose keys are made of integers (offsets, page numbers) and whose keys, previous keys,
/// next keys and positions each advance by the same step, as an offset or a page-number source's do, are
/// kept as one run (the first page, a count and the steps), and each page it stands for is recomputed
/// exactly. Other keys (cursors) are kept one by one, and the storage gives its capacity back as they
/// are reloaded.
@usableFromInline
struct DroppedPages<Key: Hashable & Sendable> {
    /// The pages kept one by one and the first page of each run, the farthest from the list first.
    @usableFromInline var pages: [PageKeys<Key>] = []
    /// The runs, by the position in `pages` of their first page, in order.
    @usableFromInline var runs: [PageRun] = []
    /// The keys of `pages` (a run's other keys are recomputed from its first).
    @usableFromInline var keys: Set<Key> = []
    /// How many pages are dropped, the pages of the runs included.
    @usableFromInline var count = 0
    /// The key the edge asked for when the first of these pages was dropped (`nil`: that end was reached).
    @usableFromInline var edgeKey: Key?

    /// At most this many runs are made: each key looked up walks them, so keys regular in short stretches
    /// only (three pages in a row, then another step) are kept one by one past it.
    @inlinable
    static var maximumRuns: Int { 16 }

    @inlinable
    init() {}

    /// Dropped pages restored from a saved list: `pages` farthest first, and the edge's key before them.
    @inlinable
    init(_ pages: [PageKeys<Key>], edgeKey: Key?) {
        for page in pages { push(page, edgeKey: edgeKey) }
        self.edgeKey = edgeKey
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The key the edge asks for now: the nearest dropped page's.
    @inlinable
    var nextKey: Key? {
        guard let last = pages.last else { return nil }
        if let run = runs.last, run.start == pages.count - 1 { return run.page(run.count - 1, after: last).key }
        return last.key
    }

    /// Every dropped page, the farthest from the list first (for a saved list).
    ///
    /// - Complexity: O(dropped pages).
    @inlinable
    var allPages: [PageKeys<Key>] {
        var all: [PageKeys<Key>] = []
        all.reserveCapacity(count)
        var nextRun = 0
        for (index, page) in pages.enumerated() {
            if nextRun < runs.count, runs[nextRun].start == index {
                let run = runs[nextRun]
                for step in 0..<run.count { all.append(run.page(step, after: page)) }
                nextRun += 1
            } else {
                all.append(page)
            }
        }
        return all
    }

    /// How many entries hold the dropped pages: the pages kept one by one and the runs.
    @inlinable
    var storedEntries: Int { pages.count + runs.count }

    /// Whether `key` is the key of one of these pages.
    ///
    /// - Complexity: O(runs), at most ``maximumRuns``.
    @inlinable
    func contains(_ key: Key) -> Bool {
        guard count > 0 else { return false }
        if keys.contains(key) { return true }
        guard !runs.isEmpty, let value = KeyIntegers(key) else { return false }
        return runs.contains { run in
            guard let first = KeyIntegers(pages[run.start].key) else { return false }
            return run.holdsKey(value, first: first)
        }
    }

    /// Remembers a page dropped at this end, while the edge asked for `edgeKey`.
    @inlinable
    mutating func push(_ page: PageKeys<Key>, edgeKey: Key?) {
        if count == 0 { self.edgeKey = edgeKey }
        count += 1
        var page = page
        page.identities = nil
        let top = pages.count - 1
        if let run = runs.last, run.start == top {
            // The run at the top goes on if the page is its next one, exactly.
            if PageRun.same(run.page(run.count, after: pages[top]), page) {
                runs[runs.count - 1].count += 1
                return
            }
        } else if pages.count >= 2, runs.count < Self.maximumRuns, runs.last.map({ $0.start < top - 1 }) ?? true,
            let step = PageRun.Step(from: pages[top - 1], to: pages[top]),
            PageRun.same(PageRun(start: 0, count: 3, step: step).page(2, after: pages[top - 1]), page)
        {
            // The two pages kept one by one at the top and this one make a run of three.
            keys.remove(pages.removeLast().key)
            runs.append(PageRun(start: top - 1, count: 3, step: step))
            return
        }
        pages.append(page)
        keys.insert(page.key)
    }

    /// Forgets the nearest dropped page (it was reloaded) and returns the key the edge asks for next.
    @inlinable
    mutating func pop() -> Key? {
        count -= 1
        if let run = runs.last, run.start == pages.count - 1 {
            // A run of two becomes its first page alone, whose key `keys` already holds.
            if run.count > 2 { runs[runs.count - 1].count -= 1 } else { runs.removeLast() }
        } else {
            keys.remove(pages.removeLast().key)
            // Cursors reloaded give their storage back, so it follows the pages dropped now, not at most.
            if pages.capacity > 64, pages.count < pages.capacity / 4 {
                var shrunk: [PageKeys<Key>] = []
                shrunk.reserveCapacity(pages.count * 2)
                shrunk.append(contentsOf: pages)
                pages = shrunk
                var shrunkKeys = Set<Key>(minimumCapacity: pages.count * 2)
                shrunkKeys.formUnion(keys)
                keys = shrunkKeys
            }
        }
        return nextKey ?? edgeKey
    }
}
