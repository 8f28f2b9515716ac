/// What changed in the items, so a list can apply inserts, removals and updates instead of reloading.
///
/// Each change is delivered together with the snapshots before and after it (``ItemsUpdate``), and
/// applying it to the snapshot before always yields the snapshot after: indices of removals refer to
/// the previous snapshot, indices of insertions and updates to the new one, as a table view's batch
/// update expects.
public enum ItemsChange: Sendable, Equatable {
    /// The items were replaced as a whole (a first page arrived, and items have no identity to compare).
    case reloaded
    /// Items were appended at these indices of the new snapshot (a page arrived at the bottom).
    case appended(Range<Int>)
    /// Every item was removed (a first page came back empty while items were shown).
    case cleared
    /// Items were inserted at these indices of the new snapshot: `0..<n` for a page prepended at the
    /// top, one index for a local insert. Every later row moved down by the range's count.
    case inserted(Range<Int>)
    /// The items at these indices of the previous snapshot were removed (a local removal).
    case removed(Range<Int>)
    /// The items at these indices were replaced in place by new versions (a local edit); no row moved.
    case updated(Range<Int>)
    /// Several changes at once: a keyed difference after a refresh, or pages dropped with one added.
    case difference(ItemsDifference)
}

/// Several changes at once, in the order a table view's batch update applies them: remove
/// ``removals`` and the sources of ``moves`` (indices of the previous snapshot), then insert
/// ``insertions`` and the destinations of ``moves`` (indices of the new snapshot), then reload
/// ``updates`` (indices of the new snapshot, for rows kept or moved whose content changed).
///
/// ```swift
/// case .difference(let difference):
///     tableView.performBatchUpdates {
///         tableView.deleteRows(at: difference.removals.map { IndexPath(row: $0, section: 0) }, with: .fade)
///         tableView.insertRows(at: difference.insertions.map { IndexPath(row: $0, section: 0) }, with: .fade)
///         for move in difference.moves {
///             tableView.moveRow(at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
///         }
///     }
///     tableView.reconfigureRows(at: difference.updates.map { IndexPath(row: $0, section: 0) })
/// ```
public struct ItemsDifference: Sendable, Equatable {
    /// A row that moved: its index in the previous snapshot and in the new one.
    public struct Move: Sendable, Hashable {
        /// The row's index in the previous snapshot.
        public let from: Int
        /// The row's index in the new snapshot.
        public let to: Int

        /// Creates a move.
        ///
        /// - Parameters:
        ///   - from: The index in the previous snapshot.
        ///   - to: The index in the new snapshot.
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Indices of the previous snapshot whose rows were removed, ascending.
    public let removals: [Int]
    /// Indices of the new snapshot whose rows were inserted, ascending.
    public let insertions: [Int]
    /// Rows that moved, by their old and new indices, in ascending order of the new index.
    public let moves: [Move]
    /// Indices of the new snapshot whose rows are new versions of kept or moved rows, ascending.
    public let updates: [Int]

    /// Creates a difference.
    ///
    /// - Parameters:
    ///   - removals: Old indices of removed rows, ascending.
    ///   - insertions: New indices of inserted rows, ascending.
    ///   - moves: Moved rows, in ascending order of the new index.
    ///   - updates: New indices of rows whose content changed, ascending.
    @inlinable
    public init(removals: [Int], insertions: [Int], moves: [Move] = [], updates: [Int] = []) {
        self.removals = removals
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
    }

    /// How many row operations the difference holds.
    @inlinable
    public var operationCount: Int {
        removals.count + insertions.count + moves.count + updates.count
    }
}

/// Where the row a refresh was anchored at went: a list scrolls so that row `to` of the new items sits
/// where row `from` of the previous items was.
public struct ItemsAnchor: Sendable, Hashable {
    /// The anchor's index in the previous items.
    public let from: Int
    /// The index in the new items of the anchor item, or of the first item after it that survived the
    /// refresh (the last row if none did).
    public let to: Int

    /// Creates an anchor.
    ///
    /// - Parameters:
    ///   - from: The index in the previous items.
    ///   - to: The index in the new items.
    @inlinable
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

/// A new snapshot of the items with the change that produced it from the previous one, and the
/// metadata of the page that made it.
///
/// For ``ItemsChange/appended(_:)``, `previous.count == range.lowerBound` and
/// `items.count == range.upperBound`, so `items[range]` are exactly the new rows.
///
/// ```swift
/// paginator.updates.observeValues { update in
///     switch update.change {
///     case .reloaded: table.replaceAll(with: Array(update.items))
///     case .appended(let rows), .inserted(let rows): table.insert(update.items[rows], at: rows)
///     case .removed(let rows): table.remove(at: rows)
///     case .updated(let rows): table.reload(update.items[rows], at: rows)
///     case .difference(let difference): table.apply(difference, items: update.items)
///     case .cleared: table.removeAll()
///     }
///     banner.defaultBank = update.metadata?.defaultBank
/// }
/// ```
public struct ItemsUpdate<Item: Sendable, Metadata: Sendable>: Sendable {
    /// The snapshot before the change.
    public let previous: PagedItems<Item>
    /// The snapshot after the change.
    public let items: PagedItems<Item>
    /// What changed.
    public let change: ItemsChange
    /// The metadata of the latest page applied when the change was made (what the page carried
    /// besides items).
    public let metadata: Metadata?
    /// For a refresh around a row, where that row went, when items have an identity; `nil` otherwise.
    public let anchor: ItemsAnchor?

    @inlinable
    init(
        previous: PagedItems<Item>, items: PagedItems<Item>, change: ItemsChange, metadata: Metadata?,
        anchor: ItemsAnchor? = nil
    ) {
        self.previous = previous
        self.items = items
        self.change = change
        self.metadata = metadata
        self.anchor = anchor
    }

    /// The items this update added: the appended or inserted rows, every row of a reload, the
    /// inserted and moved rows of a difference, none for a clear, a removal or an update.
    @inlinable
    public var newItems: [Item] {
        switch change {
        case .appended(let rows), .inserted(let rows): Array(items[rows])
        case .reloaded: Array(items)
        case .cleared, .removed, .updated: []
        case .difference(let difference):
            (difference.insertions + difference.moves.map(\.to)).sorted().map { items[$0] }
        }
    }
}
