extension ItemsDifference {
    /// The difference from `old` to `new`, matching items by `identity`.
    ///
    /// Items are matched by identity in order of occurrence (so repeated identities never trap); the
    /// matched items that keep their relative order are the longest increasing run of their old
    /// indices, and every other matched item is a move. A matched item whose content changed (told by
    /// `==` when the items are `Equatable`; always assumed otherwise) is an update. Applying the result
    /// to `old` yields `new`.
    ///
    /// Identities are hashed as their own type `ID`: inlined into a caller that knows `ID` (the closures
    /// of ``ItemIdentities``), the table of old rows is a `[ID: Int]` specialised for it.
    ///
    /// - Complexity: O((old + new) log (old + new)) integer work, plus one identity per item; one table
    ///   of the old rows' identities and a few integer arrays, whatever the edits.
    @inlinable
    init<Item, ID: Hashable>(from old: PagedItems<Item>, to new: PagedItems<Item>, by identity: (Item) -> ID) {
        let oldItems = Array(old)
        let newItems = Array(new)
        // The old rows of each identity, in order: the first in `unmatched`, each next one in `following`
        // (filled from the end, so the first row of an identity is the one the table keeps).
        var unmatched: [ID: Int] = [:]
        unmatched.reserveCapacity(oldItems.count)
        var following = [Int](repeating: -1, count: oldItems.count)
        var index = oldItems.count
        while index > 0 {
            index -= 1
            if let later = unmatched.updateValue(index, forKey: identity(oldItems[index])) {
                following[index] = later
            }
        }
        var oldIndexOfNew = [Int](repeating: -1, count: newItems.count)
        var matched = [Bool](repeating: false, count: oldItems.count)
        for index in newItems.indices {
            let id = identity(newItems[index])
            guard let candidate = unmatched[id] else { continue }
            oldIndexOfNew[index] = candidate
            matched[candidate] = true
            let next = following[candidate]
            if next >= 0 { unmatched[id] = next } else { unmatched[id] = nil }
        }
        self.init(matching: oldItems, to: newItems, oldIndexOfNew: oldIndexOfNew, matched: matched)
    }

    /// The difference of two lists whose rows are matched: `oldIndexOfNew[i]` is the old row of new row
    /// `i` (-1 for an inserted row), `matched[j]` whether old row `j` has a new row.
    @inlinable
    init<Item>(matching oldItems: [Item], to newItems: [Item], oldIndexOfNew: [Int], matched: [Bool]) {
        let compare = Self.contentComparison(of: Item.self)
        let staying = Self.longestIncreasingRun(oldIndexOfNew)
        var insertions: [Int] = []
        var moves: [Move] = []
        var updates: [Int] = []
        for (index, oldIndex) in oldIndexOfNew.enumerated() {
            if oldIndex < 0 {
                insertions.append(index)
                continue
            }
            if !staying[index] { moves.append(Move(from: oldIndex, to: index)) }
            if !compare(oldItems[oldIndex], newItems[index]) { updates.append(index) }
        }
        let removals = matched.indices.filter { !matched[$0] }
        self.init(removals: removals, insertions: insertions, moves: moves, updates: updates)
    }

    /// Marks the entries (by new index) that belong to one longest strictly increasing run of old
    /// indices; unmatched entries (-1) are skipped.
    @inlinable
    static func longestIncreasingRun(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []  // index into `values` of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() where value >= 0 {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            marks[cursor] = true
            cursor = previous[cursor]
        }
        return marks
    }

    /// How to tell whether two items have the same content: `==` when `Item` is `Equatable` (decided
    /// once, not per item), else never the same.
    @usableFromInline
    static func contentComparison<Item>(of type: Item.Type) -> (Item, Item) -> Bool {
        guard let equatable = type as? any Equatable.Type else { return { _, _ in false } }
        return equatable.comparison(as: Item.self)
    }
}

extension Equatable {
    /// `==` over values of `Item`, which is this type.
    fileprivate static func comparison<Item>(as item: Item.Type) -> (Item, Item) -> Bool {
        { left, right in unsafeBitCast(left, to: Self.self) == unsafeBitCast(right, to: Self.self) }
    }
}

extension ItemsAnchor {
    /// Where row `row` of `old` went in `new`: the new index of that item, or of the first item after
    /// it that `new` still holds (the last row of `new` if none).
    ///
    /// Identities are hashed as their own type `ID`, as in the keyed difference.
    ///
    /// - Complexity: O(old + new), plus one identity per item.
    @inlinable
    init<Item, ID: Hashable>(
        from row: Int, in old: PagedItems<Item>, to new: PagedItems<Item>, by identity: (Item) -> ID
    ) {
        var positions: [ID: Int] = [:]
        positions.reserveCapacity(new.count)
        for (index, item) in new.enumerated() {
            let id = identity(item)
            if positions[id] == nil { positions[id] = index }
        }
        var target = max(0, new.count - 1)
        var index = row
        while index < old.count {
            if let found = positions[identity(old[index])] {
                target = found
                break
            }
            index += 1
        }
        self.init(from: row, to: target)
    }
}
