/// The memory bound, placeholders and jumps of a session that uses them, as the contract states them
/// (clauses 8.1, 8.2, 8.5 and 8.6): which pages a bound drops, the keys scrolling back reloads them with,
/// the placeholders around the loaded rows, and the page a far preload jumps to.
extension PagingReference {
    /// The bound of a bounded session: two pages of five rows (the smallest that holds a page and both
    /// prefetch windows of two rows), so that the third page loaded drops one.
    static let maxPages = 2
    /// How many slots from the loaded rows a preload may land before it jumps (offset model only).
    static let jumpThreshold = 6

    /// The keys of the pages dropped at one end of the list, the nearest last, and the key that edge
    /// asked for before the first of them went.
    struct DroppedEnd: Equatable {
        var keys: [Int] = []
        var edgeKey: Int?

        mutating func push(_ key: Int, edgeKey: Int?) {
            if keys.isEmpty { self.edgeKey = edgeKey }
            keys.append(key)
        }

        /// Forgets the nearest dropped page (reloaded now); returns the key the edge asks for next.
        mutating func pop() -> Int? {
            keys.removeLast()
            return keys.last ?? edgeKey
        }
    }

    /// What a bound remembers of the list shown: the dropped pages at both ends and the row last shown.
    struct BoundState: Equatable {
        var above = DroppedEnd()
        var below = DroppedEnd()
        /// The row last preloaded, counted from the list's first page (so `leadingCount` rows down).
        var lastRow: Int?
        /// How many shown pages are above the page the list was opened at (where `.reloadAll` starts).
        var pagesAboveOpening = 0
    }

    /// How often pages were dropped and reloaded at each end, and preloads jumped.
    struct BoundEvents: Equatable {
        var dropsAbove = 0
        var dropsBelow = 0
        var reloadsAbove = 0
        var reloadsBelow = 0
        var jumps = 0
    }

    /// The bound the reference applies (none for the mutation that ignores it).
    private var bound: Int? {
        configuration.bounded && mutation != .ignoresDrops ? Self.maxPages : nil
    }

    /// After a page was added at one end: drops whole pages at the end farther from the row last shown
    /// (the other end without a row) while more than the bound are loaded, never leaving that row within
    /// the prefetch distance of the new edge; with `keepingFailedEnds` (a preload, with no page landing),
    /// an end whose load failed keeps its page.
    ///
    /// - Returns: How many rows went at the top and at the bottom.
    @discardableResult
    mutating func enforceBound(afterAppend: Bool, keepingFailedEnds: Bool = false) -> (top: Int, bottom: Int) {
        guard let bound else { return (0, 0) }
        var dropped = (top: 0, bottom: 0)
        while pageKeys.count > max(bound, 2) {
            let row = bounds.lastRow.map { $0 + leadingCount }
            var dropsTop = afterAppend
            if let row {
                let shown = min(max(row, 0), items.count - 1)
                let above = shown
                let below = items.count - 1 - shown
                if above != below { dropsTop = above > below }
            }
            if keepingFailedEnds, case .failed = dropsTop ? prependSlot : appendSlot { break }
            if dropsTop {
                let rows = pageRows[0]
                if let row, row - rows <= Self.prefetchDistance { break }
                dropTopPage()
                dropped.top += rows
            } else {
                let rows = pageRows[pageRows.count - 1]
                if let row, row >= items.count - rows - 1 - Self.prefetchDistance { break }
                dropBottomPage()
                dropped.bottom += rows
            }
        }
        return dropped
    }

    private mutating func dropTopPage() {
        let rows = pageRows.removeFirst()
        let key = pageKeys.removeFirst()
        if configuration.deduplicates { seen.subtract(items.prefix(rows)) }
        removedSinceShown.formUnion(items.prefix(rows))
        items.removeFirst(rows)
        boundEvents.dropsAbove += 1
        bounds.above.push(key, edgeKey: previousKey)
        bounds.pagesAboveOpening -= 1
        previousKey = key
        leadingCount -= rows
        reopen(.prepend)
    }

    private mutating func dropBottomPage() {
        let rows = pageRows.removeLast()
        let key = pageKeys.removeLast()
        if configuration.deduplicates { seen.subtract(items.suffix(rows)) }
        removedSinceShown.formUnion(items.suffix(rows))
        items.removeLast(rows)
        boundEvents.dropsBelow += 1
        bounds.below.push(key, edgeKey: nextKey)
        nextKey = key
        reopen(.append)
    }

    /// A dropped end is idle again: its load in flight is disposed, its failure and automatic retry gone.
    private mutating func reopen(_ direction: Direction) {
        setSlot(direction, .idle)
        if scheduledRetry?.direction == direction { scheduledRetry = nil }
        retries[direction] = 0
    }

    /// When a page lands at `direction` while pages are dropped there: the key remembered for the page
    /// beyond it (`.some(nil)`: that end was reached), whatever the server says now; `nil` otherwise.
    mutating func reloadsDropped(_ direction: Direction) -> Int?? {
        switch direction {
        case .append where !bounds.below.keys.isEmpty:
            boundEvents.reloadsBelow += 1
            return .some(bounds.below.pop())
        case .prepend where !bounds.above.keys.isEmpty:
            boundEvents.reloadsAbove += 1
            return .some(bounds.above.pop())
        default:
            return nil
        }
    }

    // MARK: Placeholders and jumps

    /// Whether the slots show placeholders: a list whose top page says where it starts (an offset), and
    /// a total.
    var showsPlaceholders: Bool {
        configuration.placeholders && hasList && !pageKeys.isEmpty && total != nil
    }

    /// The placeholders before and after the loaded rows.
    var placeholders: (before: Int, after: Int) {
        guard showsPlaceholders, let total else { return (0, 0) }
        let before = pageKeys[0]
        return (before, max(0, total - before - items.count))
    }

    /// A preload of slot `slot`: the loaded row it stands for (the nearest for a placeholder), or `nil`
    /// when it does nothing or jumps.
    mutating func row(ofSlot slot: Int) -> Int? {
        let (before, after) = placeholders
        guard !items.isEmpty, slot >= 0, slot < before + items.count + after else { return nil }
        let row = slot - before
        let outside = row < 0 ? -row : max(0, row - (items.count - 1))
        if configuration.jumps, mutation != .neverJumps, outside > Self.jumpThreshold {
            jump(toSlot: slot)
            return nil
        }
        return min(max(row, 0), items.count - 1)
    }

    /// Loads the page that holds `slot` directly, as a refresh from its offset (a jump to the page
    /// already loading does nothing).
    private mutating func jump(toSlot slot: Int) {
        let key = slot / Self.pageSize * Self.pageSize
        if case .loading(let load) = refreshSlot, load.key == key { return }
        boundEvents.jumps += 1
        refresh(query: nil, startingAt: key)
    }

    /// A preload of `row`, a row of the list: it is the row last shown now, and pages kept over the bound
    /// while the row was near them go.
    ///
    /// - Returns: How many rows went at the top.
    mutating func recordShown(row: Int) -> Int {
        bounds.lastRow = row - leadingCount
        return enforceBound(afterAppend: true, keepingFailedEnds: true).top
    }
}
