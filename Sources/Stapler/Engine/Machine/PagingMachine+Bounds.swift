/// A paginator's memory bound: how many pages it keeps, and the rows around the one last shown that
/// are never dropped.
@usableFromInline
struct MemoryBound: Sendable {
    /// The most pages kept after a page is applied (never fewer than 2).
    @usableFromInline let maxPages: Int
    /// How many rows on either side of the row last shown must stay loaded (the prefetch distance).
    @usableFromInline let keptDistance: Int

    @inlinable
    init(maxPages: Int, keptDistance: Int) {
        self.maxPages = maxPages
        self.keptDistance = keptDistance
    }
}

extension PagingMachine {
    /// Records that row `index` of the current list was shown (``Paginator/preload(index:)``).
    ///
    /// The row is kept counted from the opening page's first row, so it keeps pointing at the same
    /// item while pages are added or dropped at the top.
    @inlinable
    mutating func recordAccess(row index: Int) {
        list.lastAccessedRow = index - list.leadingCount
    }

    /// Drops whole pages at the end farther from the row last shown until the bound holds.
    ///
    /// A page is never dropped if that would leave the row last shown within the kept distance of the
    /// new edge (the next preload of that row would load it again at once), nor while fewer than three
    /// are loaded; so with short pages, or at the smallest bound, one more page than the bound may stay
    /// until the row moves on. The dropped end reopens with the dropped
    /// page's own key, and a load in flight there is disposed (it would attach to a gap).
    ///
    /// - Parameters:
    ///   - edge: Where the page that went over the bound was added; without a row shown, the other end
    ///     is dropped.
    ///   - keepingFailedEnds: Whether an end whose load failed keeps its page: with no page landing, a
    ///     drop there would clear the failure and leave `errorLoadingMore` for `data`, a move the state
    ///     machine does not have.
    ///   - effects: The effects of the transition, which gain the disposal of a load at a dropped end.
    /// - Returns: How many rows went at the top and at the bottom.
    @inlinable
    mutating func enforceBound(
        after edge: PageDirection, keepingFailedEnds: Bool = false, _ effects: inout Effects
    ) -> (top: Int, bottom: Int) {
        guard let bound = configuration.bound else { return (0, 0) }
        var dropped = (top: 0, bottom: 0)
        while list.pageKeys.count > max(bound.maxPages, 2) {
            let items = list.items
            let row = list.accessedRow
            let dropsTop: Bool
            if let row {
                let shown = min(max(row, 0), items.count - 1)
                let above = shown
                let below = items.count - 1 - shown
                dropsTop = above == below ? edge == .append : above > below
            } else {
                dropsTop = edge == .append
            }
            // A drop must leave the row shown farther than the kept distance from the new edge: within it,
            // the next preload of that row would load the dropped page again at once.
            if keepingFailedEnds, self[phase: dropsTop ? .prepend : .append].error != nil { break }
            if dropsTop {
                let rows = items.items(ofPage: 0).count
                if let row, row - bound.keptDistance <= rows { break }
                dropFirstPage(rows: rows, &effects)
                dropped.top += rows
            } else {
                let rows = items.items(ofPage: items.pageCount - 1).count
                if let row, row + bound.keptDistance + 1 >= items.count - rows { break }
                dropLastPage(&effects)
                dropped.bottom += rows
            }
        }
        return dropped
    }

    /// Drops the pages over the bound that the row last shown allows to go now, as one items change; an
    /// end whose load failed keeps its page until the failure is retried.
    ///
    /// - Returns: How many rows went at the top and at the bottom.
    @inlinable
    mutating func dropOverBound(_ effects: inout Effects) -> (top: Int, bottom: Int) {
        guard let bound = configuration.bound, list.pageKeys.count > max(bound.maxPages, 2) else { return (0, 0) }
        let previous = list.items
        let dropped = enforceBound(after: .append, keepingFailedEnds: true, &effects)
        if let change = Self.change(from: 0..<previous.count, to: dropped.top..<previous.count - dropped.bottom) {
            effects.itemsChange = change
            effects.previousItemCount = previous.count
        }
        return dropped
    }

    /// Drops the top page (of `rows` rows) and reopens the top with its key.
    @inlinable
    mutating func dropFirstPage(rows: Int, _ effects: inout Effects) {
        var keys = list.pageKeys.removeFirst()
        forgetIdentities(of: &keys)
        list.items = list.items.droppingFirstPage()
        list.leadingCount -= rows
        list.firstPageIndex += 1
        rememberDropped(keys, at: .prepend, &effects)
    }

    /// Drops the bottom page and reopens the bottom with its key.
    @inlinable
    mutating func dropLastPage(_ effects: inout Effects) {
        var keys = list.pageKeys.removeLast()
        forgetIdentities(of: &keys)
        list.items = list.items.droppingLastPage()
        rememberDropped(keys, at: .append, &effects)
    }

    /// Remembers the page of `keys`, just dropped at `edge`, and reopens that edge with its key: the
    /// edge's counters restart and its load and failure no longer stand.
    @inlinable
    mutating func rememberDropped(_ keys: PageKeys<Key>, at edge: PageDirection, _ effects: inout Effects) {
        list.usedKeys.remove(keys.key)
        list[end: edge].dropped.push(keys, edgeKey: list[end: edge].key)
        list[end: edge].key = keys.key
        effects.dropsPages = true
        edges[edge].idlePages = 0
        edges[edge].stoppedWithoutProgress = nil
        reopen(edge, &effects)
    }

    /// Makes `edge` idle after a drop there: its load in flight is disposed and a failure beyond the
    /// dropped page no longer stands (the next request is the dropped page's).
    @inlinable
    mutating func reopen(_ edge: PageDirection, _ effects: inout Effects) {
        if let load = self[phase: edge].load {
            effects.cancel(load.ticket, of: edge)
            effects.end(load.ticket, of: edge, as: .superseded)
        }
        if scheduledRetry?.direction == edge { abandonScheduledRetry(as: .superseded, &effects) }
        edges[edge].lane.phase = .idle
        edges[edge].lane.autoRetries = 0
    }

    /// Lets the rows of a dropped page load again when deduplicating (a reload of the page brings them
    /// back), and leaves the dropped page's keys without identities.
    @inlinable
    mutating func forgetIdentities(of page: inout PageKeys<Key>) {
        guard let identities = page.identities else { return }
        for identity in identities { list.loadedIdentities.remove(identity) }
        page.identities = nil
    }

    /// The change from the rows shown in `old` to those in `new`, two windows over one sequence of rows
    /// (the rows shown before, with the page just added on one side).
    @inlinable
    static func change(from old: Range<Int>, to new: Range<Int>) -> ItemsChange? {
        func clamped(_ lower: Int, _ upper: Int) -> Range<Int> { lower..<max(lower, upper) }
        let removedTop = clamped(old.lowerBound, min(old.upperBound, new.lowerBound))
        let removedBottom = clamped(min(old.upperBound, max(old.lowerBound, new.upperBound)), old.upperBound)
        let insertedTop = clamped(new.lowerBound, min(new.upperBound, old.lowerBound))
        let insertedBottom = clamped(min(new.upperBound, max(new.lowerBound, old.upperBound)), new.upperBound)
        func shifted(_ rows: Range<Int>, by start: Int) -> Range<Int> {
            rows.lowerBound - start..<rows.upperBound - start
        }
        // The cases of a page added at one end, with no drop, build no array.
        let removes = !removedTop.isEmpty || !removedBottom.isEmpty
        let inserts = !insertedTop.isEmpty || !insertedBottom.isEmpty
        switch (removes, inserts) {
        case (false, false): return nil
        case (false, true) where insertedTop.isEmpty: return .appended(shifted(insertedBottom, by: new.lowerBound))
        case (false, true) where insertedBottom.isEmpty: return .inserted(shifted(insertedTop, by: new.lowerBound))
        case (true, false) where removedTop.isEmpty: return .removed(shifted(removedBottom, by: old.lowerBound))
        case (true, false) where removedBottom.isEmpty: return .removed(shifted(removedTop, by: old.lowerBound))
        default:
            let removals =
                Array(shifted(removedTop, by: old.lowerBound)) + Array(shifted(removedBottom, by: old.lowerBound))
            let insertions =
                Array(shifted(insertedTop, by: new.lowerBound)) + Array(shifted(insertedBottom, by: new.lowerBound))
            return .difference(ItemsDifference(removals: removals, insertions: insertions))
        }
    }
}
