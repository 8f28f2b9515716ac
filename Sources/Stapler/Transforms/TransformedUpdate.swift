/// A new snapshot of a transformed list with the change that produced it from the previous one.
///
/// Indices refer to the transformed list, and applying ``change`` to ``previous`` always yields
/// ``items`` (removals by indices of `previous`; insertions and updates by indices of `items`), as for
/// ``ItemsUpdate``.
///
/// ```swift
/// list.updates.observeValues { update in update.apply(to: &rows) }
/// ```
public struct TransformedUpdate<Output: Sendable>: Sendable {
    /// The snapshot before the change.
    public let previous: TransformedItems<Output>
    /// The snapshot after the change.
    public let items: TransformedItems<Output>
    /// What changed, in indices of the transformed list.
    public let change: ItemsChange

    /// Creates an update (for tests and previews).
    ///
    /// - Parameters:
    ///   - previous: The snapshot before the change.
    ///   - items: The snapshot after it.
    ///   - change: The change, in transformed indices.
    public init(previous: TransformedItems<Output>, items: TransformedItems<Output>, change: ItemsChange) {
        self.previous = previous
        self.items = items
        self.change = change
    }

    /// Applies the change to `rows`, an array that held ``previous``; afterwards it holds ``items``.
    ///
    /// - Parameter rows: The rows of the previous snapshot, in order.
    /// - Complexity: O(changed rows) for appends, prepends and single edits (plus the shift of an
    ///   array insertion), O(rows) for a reload or a difference.
    public func apply(to rows: inout [Output]) {
        switch change {
        case .reloaded:
            rows = Array(items)
        case .cleared:
            rows.removeAll()
        case .appended(let range):
            rows.append(contentsOf: range.map { items[$0] })
        case .inserted(let range):
            rows.insert(contentsOf: range.map { items[$0] }, at: range.lowerBound)
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
