/// The rows a publication changed in a transformed list, by identity, and the change that describes
/// them in transformed indices.
///
/// Each segment is a run of rows before (at its index in the previous snapshot) and after (at its index
/// in the new one); rows outside every segment did not change. A row present before and after is kept
/// (an update if its value was computed this round, a move if its order among the kept rows changed);
/// the others are removed or inserted.
@usableFromInline
struct ChangeSegments {
    @usableFromInline static let headerID = -3
    @usableFromInline static let footerID = -4

    /// Rows before: id and index.
    private var old: [(id: Int, index: Int)] = []
    /// Rows after: id, index, and whether the value was computed this round.
    private var new: [(id: Int, index: Int, round: Int)] = []
    /// Runs of rows after that no row before can match (the rows of a chunk that showed none): their first
    /// index and their count.
    private var inserted: [(start: Int, count: Int)] = []

    @usableFromInline
    init() {}

    /// Adds the rows of a chunk before (from index `oldStart`) and after (from `newStart`), by their keys.
    @usableFromInline
    mutating func add(
        old rows: ContiguousArray<RowKey>, at oldStart: Int, new newRows: ContiguousArray<RowKey>, at newStart: Int
    ) {
        old.reserveCapacity(old.count + rows.count)
        var index = oldStart
        for row in rows {
            old.append((row.id, index))
            index += 1
        }
        new.reserveCapacity(new.count + newRows.count)
        index = newStart
        for row in newRows {
            new.append((row.id, index, row.round))
            index += 1
        }
    }

    /// Adds `count` rows after, from index `start`, that no row before can match: they are inserted.
    @usableFromInline
    mutating func addInserted(count: Int, at start: Int) {
        if count > 0 { inserted.append((start, count)) }
    }

    /// Adds a header or footer row, at its index before and after (`nil` where there is none); it was
    /// computed this round.
    @usableFromInline
    mutating func addEdgeRow(id: Int, old oldIndex: Int?, new newIndex: Int?) {
        if let oldIndex { old.append((id, oldIndex)) }
        if let newIndex { new.append((id, newIndex, Int.max)) }
    }

    /// The change that turns the previous snapshot (`oldCount` rows) into the new one, or `nil` if no
    /// row changed; and how many rows it inserted.
    @usableFromInline
    func change(oldCount: Int, newCount: Int, round: Int, reloaded: Bool) -> (ItemsChange, Int)? {
        if reloaded { return oldCount == 0 && newCount == 0 ? nil : (.reloaded, newCount) }
        if old.isEmpty, new.isEmpty, inserted.count == 1 {
            // One run of new rows (a page added at an end): no identity to match.
            let rows = inserted[0].start..<inserted[0].start + inserted[0].count
            return (
                rows.lowerBound == oldCount && rows.upperBound == newCount ? .appended(rows) : .inserted(rows),
                rows.count
            )
        }
        if old.isEmpty {
            // Only new rows (a page added at an end): no identity to match.
            var insertions = new.map(\.index)
            appendInserted(to: &insertions)
            insertions.sort()
            guard let first = insertions.first else { return nil }
            let rows = first..<first + insertions.count
            guard isRun(insertions) else {
                return (.difference(ItemsDifference(removals: [], insertions: insertions)), insertions.count)
            }
            return (
                rows.lowerBound == oldCount && rows.upperBound == newCount ? .appended(rows) : .inserted(rows),
                rows.count
            )
        }
        var oldIndex: [Int: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for row in old { oldIndex[row.id] = row.index }
        var insertions: [Int] = []
        var kept: [(from: Int, to: Int, changed: Bool)] = []
        var newIDs = Set<Int>()
        newIDs.reserveCapacity(new.count)
        for row in new.sorted(by: { $0.index < $1.index }) {
            newIDs.insert(row.id)
            if let from = oldIndex[row.id] {
                kept.append((from, row.index, row.round == round || row.round == Int.max))
            } else {
                insertions.append(row.index)
            }
        }
        if !inserted.isEmpty {
            appendInserted(to: &insertions)
            insertions.sort()
        }
        let removals = old.filter { !newIDs.contains($0.id) }.map(\.index).sorted()
        let staying = Set(longestIncreasingRun(kept.map(\.from)))
        var moves: [ItemsDifference.Move] = []
        var updates: [Int] = []
        for (position, row) in kept.enumerated() {
            if !staying.contains(position) { moves.append(ItemsDifference.Move(from: row.from, to: row.to)) }
            if row.changed { updates.append(row.to) }
        }
        if newCount == 0 && oldCount > 0 { return (.cleared, 0) }
        let inserted = insertions.count + moves.count
        switch (removals.isEmpty, insertions.isEmpty, moves.isEmpty, updates.isEmpty) {
        case (true, true, true, true):
            return nil
        case (true, false, true, true) where isRun(insertions):
            let rows = insertions[0]..<insertions[0] + insertions.count
            return (
                rows.lowerBound == oldCount && rows.upperBound == newCount ? .appended(rows) : .inserted(rows), inserted
            )
        case (false, true, true, true) where isRun(removals):
            return (.removed(removals[0]..<removals[0] + removals.count), 0)
        case (true, true, true, false) where isRun(updates):
            return (.updated(updates[0]..<updates[0] + updates.count), 0)
        default:
            return (
                .difference(
                    ItemsDifference(
                        removals: removals, insertions: insertions, moves: moves.sorted { $0.to < $1.to },
                        updates: updates.sorted())), inserted
            )
        }
    }

    /// Appends the indices of the runs of inserted rows to `indices`.
    private func appendInserted(to indices: inout [Int]) {
        for run in inserted { indices.append(contentsOf: run.start..<run.start + run.count) }
    }

    /// Whether `indices` (ascending) are consecutive.
    private func isRun(_ indices: [Int]) -> Bool {
        indices.last.map { $0 - indices[0] == indices.count - 1 } ?? false
    }

    /// The positions of a longest increasing subsequence of `values` (the kept rows that need not move).
    private func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // positions
        var parents = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { parents[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            result.append(position)
            position = parents[position]
        }
        return result
    }
}

extension TransformedItems {
    /// The number of header rows: 0 or 1.
    @inlinable
    var headerCount: Int { header == nil ? 0 : 1 }

    /// The index of the first row of chunk `index` (0 the top edge, `p + 1` source page `p`, then the
    /// bottom edge).
    @inlinable
    func start(ofChunk index: Int) -> Int {
        if index == 0 { return headerCount }
        let page = index - 1
        if page < body.pageCount { return headerCount + leading.count + body.page(at: page).start }
        return headerCount + leading.count + body.count
    }
}
