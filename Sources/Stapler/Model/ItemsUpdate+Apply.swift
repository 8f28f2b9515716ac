extension ItemsUpdate {
    /// Applies the change to `rows`, an array that held ``previous``; afterwards it holds ``items``.
    ///
    /// For a list whose rows live in a plain array (a SwiftUI model, a diffable snapshot being built):
    ///
    /// ```swift
    /// paginator.updates.observeValues { update in update.apply(to: &rows) }
    /// ```
    ///
    /// - Parameter rows: The rows of the previous snapshot, in order.
    /// - Complexity: O(changed rows) for appends, prepends and single edits (plus the shift of an
    ///   array insertion), O(rows) for a reload or a difference.
    @inlinable
    public func apply(to rows: inout [Item]) {
        switch change {
        case .reloaded:
            rows = Array(items)
        case .cleared:
            rows.removeAll()
        case .appended(let range):
            rows.append(contentsOf: items[range])
        case .inserted(let range):
            rows.insert(contentsOf: items[range], at: range.lowerBound)
        case .removed(let range):
            rows.removeSubrange(range)
        case .updated(let range):
            for index in range { rows[index] = items[index] }
        case .difference(let difference):
            var removed = Set(difference.removals)
            for move in difference.moves { removed.insert(move.from) }
            for index in removed.sorted(by: >) { rows.remove(at: index) }
            let inserted = (difference.insertions + difference.moves.map(\.to)).sorted()
            for index in inserted { rows.insert(items[index], at: index) }
            for index in difference.updates { rows[index] = items[index] }
        }
    }
}
