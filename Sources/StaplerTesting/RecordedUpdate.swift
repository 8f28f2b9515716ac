import Stapler

/// One update as an ``UpdateRecorder`` keeps it: the rows before, the rows after, and the change said to
/// turn the first into the second.
public struct RecordedUpdate<Row: Sendable>: Sendable {
    /// The rows before the change.
    public let previous: [Row]
    /// The rows after the change, as the update's snapshot holds them.
    public let rows: [Row]
    /// The change the update reports.
    public let change: ItemsChange

    /// Creates a record (for a test double that publishes its own updates).
    ///
    /// - Parameters:
    ///   - previous: The rows before the change.
    ///   - rows: The rows after it.
    ///   - change: The change reported.
    public init(previous: [Row], rows: [Row], change: ItemsChange) {
        self.previous = previous
        self.rows = rows
        self.change = change
    }

    /// Applies ``change`` to `rows` as a table view's batch update does, taking new rows from ``rows``;
    /// `nil` with the reason when an index is out of range.
    func replay(on start: [Row]) -> Result<[Row], ReplayFailure> {
        var replayed = start
        switch change {
        case .reloaded:
            return .success(self.rows)
        case .cleared:
            return .success([])
        case .appended(let range):
            guard range.lowerBound == start.count, range.upperBound <= self.rows.count else {
                return .failure(ReplayFailure(reason: "appends rows \(range) after \(start.count) rows"))
            }
            replayed.append(contentsOf: self.rows[range])
        case .inserted(let range):
            guard range.lowerBound <= start.count, range.upperBound <= self.rows.count else {
                return .failure(ReplayFailure(reason: "inserts rows \(range) into \(start.count) rows"))
            }
            replayed.insert(contentsOf: self.rows[range], at: range.lowerBound)
        case .removed(let range):
            guard range.upperBound <= start.count else {
                return .failure(ReplayFailure(reason: "removes rows \(range) of \(start.count) rows"))
            }
            replayed.removeSubrange(range)
        case .updated(let range):
            guard range.upperBound <= start.count, range.upperBound <= self.rows.count else {
                return .failure(ReplayFailure(reason: "updates rows \(range) of \(start.count) rows"))
            }
            for index in range { replayed[index] = self.rows[index] }
        case .difference(let difference):
            return replay(difference, on: start)
        }
        return .success(replayed)
    }

    private func replay(_ difference: ItemsDifference, on start: [Row]) -> Result<[Row], ReplayFailure> {
        var replayed = start
        let removed = Set(difference.removals + difference.moves.map(\.from))
        guard removed.allSatisfy({ $0 >= 0 && $0 < start.count }) else {
            return .failure(ReplayFailure(reason: "removes a row outside the \(start.count) rows"))
        }
        for index in removed.sorted(by: >) { replayed.remove(at: index) }
        for index in (difference.insertions + difference.moves.map(\.to)).sorted() {
            guard index >= 0, index <= replayed.count, index < self.rows.count else {
                return .failure(ReplayFailure(reason: "inserts row \(index) into \(replayed.count) rows"))
            }
            replayed.insert(self.rows[index], at: index)
        }
        for index in difference.updates {
            guard index >= 0, index < replayed.count, index < self.rows.count else {
                return .failure(ReplayFailure(reason: "updates row \(index) of \(replayed.count) rows"))
            }
            replayed[index] = self.rows[index]
        }
        return .success(replayed)
    }
}

/// Why a change cannot be replayed: an index outside the rows.
struct ReplayFailure: Error {
    let reason: String
}

/// The first update an ``UpdateRecorder/check()`` found broken, by its index in the recording.
public struct UpdateViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The index of the broken update in ``UpdateRecorder/updates``, from 0.
    public let index: Int
    /// What is wrong, in words that start with the update's index: `update 3: replaying inserted(0..<2) on
    /// 10 rows gives 12 rows, the snapshot has 13`.
    public let description: String

    /// Creates a violation (to compare with the one a check throws).
    ///
    /// - Parameters:
    ///   - index: The index of the broken update.
    ///   - description: What is wrong, starting with `update <index>:`.
    public init(index: Int, description: String) {
        self.index = index
        self.description = description
    }
}

/// A change in words: `inserted(0..<2)`, `difference(removals: [1], insertions: [0, 4], moves: 0,
/// updates: [])`.
func describeChange(_ change: ItemsChange) -> String {
    switch change {
    case .reloaded: "reloaded"
    case .cleared: "cleared"
    case .appended(let rows): "appended(\(rows.lowerBound)..<\(rows.upperBound))"
    case .inserted(let rows): "inserted(\(rows.lowerBound)..<\(rows.upperBound))"
    case .removed(let rows): "removed(\(rows.lowerBound)..<\(rows.upperBound))"
    case .updated(let rows): "updated(\(rows.lowerBound)..<\(rows.upperBound))"
    case .difference(let difference):
        "difference(removals: \(difference.removals), insertions: \(difference.insertions), moves: "
            + "\(difference.moves.count), updates: \(difference.updates))"
    }
}
