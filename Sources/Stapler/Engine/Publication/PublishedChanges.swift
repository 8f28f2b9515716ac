/// The item changes of the latest publications, by serial, so that an index read against a snapshot an
/// app was given can be carried to the engine's newest list.
///
/// An app passes indices of the list it shows: the snapshot its observers were last given, or the one a
/// `PagingModel` applied on the main actor, one hop later. Pages may have landed since (a prepend shifts
/// every row down), so an edit of "row 0" must find the row that was at 0 *there*. Each publication the
/// engine enqueues gets the next serial; a change of its items is recorded here with it. Following the
/// changes after a snapshot's serial moves its rows to their places now, or finds them gone.
///
/// It keeps every change not yet delivered and the ``retainedDelivered`` latest delivered ones (for the
/// readers one hop behind); a reader further behind falls back to the rows' identities, or finds its
/// row gone.
@usableFromInline
struct PublishedChanges {
    /// One publication's change of the items, and the item count after it.
    @usableFromInline
    struct Entry {
        @usableFromInline let serial: UInt64
        @usableFromInline let change: ItemsChange
        @usableFromInline let count: Int

        @inlinable
        init(serial: UInt64, change: ItemsChange, count: Int) {
            self.serial = serial
            self.change = change
            self.count = count
        }
    }

    /// Where a row of an earlier snapshot is now.
    @usableFromInline
    enum Place: Equatable {
        /// At this index of the newest list.
        case row(Int)
        /// The row was removed, or its list replaced.
        case gone
        /// A list was replaced since (a refresh, a cache switch) or the changes since were forgotten: only
        /// the row's identity can find it.
        case unknown
    }

    /// The serial of the latest publication enqueued (0: the initial one).
    @usableFromInline private(set) var latestSerial: UInt64 = 0
    @usableFromInline var entries: [Entry] = []
    /// The serial of the latest change forgotten (0: none).
    @usableFromInline var forgottenThrough: UInt64 = 0

    @inlinable
    init() {}

    /// How many delivered changes are kept for readers that lag one hop behind the delivery.
    @inlinable
    static var retainedDelivered: Int { 64 }

    /// Records the next publication, which changes the items by `change` (none: `nil`) to `count` rows,
    /// and forgets changes delivered long ago (`delivered` is the serial of the latest delivered one).
    ///
    /// - Complexity: O(1) amortised while deliveries keep up.
    @inlinable
    mutating func record(_ change: ItemsChange?, count: Int, delivered: UInt64) {
        latestSerial &+= 1
        if let change {
            // One allocation for the log's life: it is trimmed in place before it outgrows it.
            if entries.capacity == 0 { entries.reserveCapacity(2 * Self.retainedDelivered + 1) }
            entries.append(Entry(serial: latestSerial, change: change, count: count))
        }
        // Trimmed in batches, so that a publication moves the kept entries once in many.
        guard entries.count > 2 * Self.retainedDelivered else { return }
        let keptFrom = delivered > UInt64(Self.retainedDelivered) ? delivered - UInt64(Self.retainedDelivered) : 0
        let forgotten = entries.prefix { $0.serial <= keptFrom }.count
        guard forgotten > 0 else { return }
        forgottenThrough = entries[forgotten - 1].serial
        entries.removeFirst(forgotten)
    }

    /// Where row `row` of the snapshot of publication `serial` is now.
    ///
    /// A row is followed through the changes since: rows inserted or removed before it move it, and a
    /// removal of the row itself makes it ``Place/gone``. If the list was replaced since (a refresh, a
    /// cache switch), or a change since was forgotten, only the row's identity can find it:
    /// ``Place/unknown``.
    ///
    /// - Complexity: O(publications since `serial`), plus the size of any difference among them.
    @inlinable
    func place(of row: Int, at serial: UInt64) -> Place {
        guard serial <= latestSerial else { return .unknown }
        if serial == latestSerial { return .row(row) }
        // A change after `serial` was forgotten: the rows cannot be followed.
        guard serial >= forgottenThrough else { return .unknown }
        let since = entries.lazy.filter { $0.serial > serial }
        if since.contains(where: { $0.change == .reloaded || $0.change == .cleared }) { return .unknown }
        var index = row
        for entry in since {
            switch Self.place(of: index, through: entry.change, countAfter: entry.count) {
            case .row(let moved): index = moved
            case let other: return other
            }
        }
        return .row(index)
    }

    /// Where row `index` goes through one change of the same list.
    @inlinable
    static func place(of index: Int, through change: ItemsChange, countAfter: Int) -> Place {
        switch change {
        case .reloaded, .cleared:
            return .unknown
        case .appended, .updated:
            return .row(index)
        case .inserted(let rows):
            return .row(index >= rows.lowerBound ? index + rows.count : index)
        case .removed(let rows):
            if index < rows.lowerBound { return .row(index) }
            return index >= rows.upperBound ? .row(index - rows.count) : .gone
        case .difference(let difference):
            if let move = difference.moves.first(where: { $0.from == index }) { return .row(move.to) }
            // A kept row keeps its rank among the kept rows.
            let gone = Set(difference.removals).union(difference.moves.lazy.map(\.from))
            guard !gone.contains(index) else { return .gone }
            let rank = index - gone.lazy.filter { $0 < index }.count
            let arriving = Set(difference.insertions).union(difference.moves.lazy.map(\.to))
            var kept = 0
            for new in 0..<countAfter where !arriving.contains(new) {
                if kept == rank { return .row(new) }
                kept += 1
            }
            return .gone
        }
    }
}
