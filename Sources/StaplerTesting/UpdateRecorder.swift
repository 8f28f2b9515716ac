import Reactive
import Stapler

/// Records every update a paginator (or a transformed list) publishes, and checks that each one's change
/// replays to its snapshot: the contract a table view's batch update relies on.
///
/// ```swift
/// let recorder = UpdateRecorder(paginator, id: \.id)
/// // ... page, edit, refresh ...
/// try recorder.check()
/// ```
///
/// It observes through one observer, which ``stop()`` (or releasing the recorder) removes; the recorder
/// keeps nothing of what it observed alive, and what it observed keeps nothing of the recorder.
public final class UpdateRecorder<Row: Sendable, ID: Hashable & Sendable>: Sendable {
    /// The identity of a row.
    let id: @Sendable (Row) -> ID
    /// The updates recorded, in order; shared with the observer.
    let recording: LockedState<[RecordedUpdate<Row>]>
    /// The observation, until stopped.
    let observation: LockedState<(any Disposable)?>

    /// Creates a recorder fed by ``record(_:)`` alone (for a test double).
    ///
    /// - Parameter id: The identity of a row.
    public init(id: @escaping @Sendable (Row) -> ID) {
        self.id = id
        recording = LockedState([])
        observation = LockedState(nil)
    }

    /// Creates a recorder of every value of `signal`, each turned into an update by `update`.
    ///
    /// - Parameters:
    ///   - signal: The updates to record.
    ///   - id: The identity of a row.
    ///   - update: Makes the record of one value.
    public convenience init<Value>(
        observing signal: Signal<Value, Never>, id: @escaping @Sendable (Row) -> ID,
        update: @escaping @Sendable (Value) -> RecordedUpdate<Row>
    ) {
        self.init(id: id)
        let recording = recording
        let disposable = signal.observeValues { value in
            let record = update(value)
            recording.withLock { $0.append(record) }
        }
        observation.withLock { $0 = disposable }
    }

    /// Creates a recorder of every `ItemsUpdate` of `paginator`.
    ///
    /// - Parameters:
    ///   - paginator: The paginator to observe.
    ///   - id: The identity of a row.
    public convenience init<Key, Query, Metadata, Failure>(
        _ paginator: Paginator<Row, Key, Query, Metadata, Failure>, id: @escaping @Sendable (Row) -> ID
    ) {
        self.init(observing: paginator.updates, id: id) { update in
            RecordedUpdate(previous: Array(update.previous), rows: Array(update.items), change: update.change)
        }
    }

    /// Creates a recorder of every `TransformedUpdate` of `list`.
    ///
    /// - Parameters:
    ///   - list: The transformed list to observe.
    ///   - id: The identity of a row.
    public convenience init(_ list: TransformedList<Row>, id: @escaping @Sendable (Row) -> ID) {
        self.init(observing: list.updates, id: id) { update in
            RecordedUpdate(previous: Array(update.previous), rows: Array(update.items), change: update.change)
        }
    }

    deinit {
        stop()
    }

    /// The updates recorded so far, in order.
    public var updates: [RecordedUpdate<Row>] { recording.withLock { $0 } }

    /// Records one update by hand.
    ///
    /// - Parameter update: The update.
    public func record(_ update: RecordedUpdate<Row>) {
        recording.withLock { $0.append(update) }
    }

    /// Removes the observer; nothing published afterwards is recorded.
    public func stop() {
        observation.withLock { $0.take() }?.dispose()
    }

    /// Checks every update recorded: its rows follow the previous update's, its change replayed on its
    /// previous rows gives its rows (same ids, in order), and no id appears twice in its rows.
    ///
    /// - Throws: The first ``UpdateViolation``, naming the update's index.
    public func check() throws(UpdateViolation) {
        var last: [ID]?
        for (index, update) in updates.enumerated() {
            try check(update, at: index, after: last)
            last = update.rows.map(id)
        }
    }

    private func check(_ update: RecordedUpdate<Row>, at index: Int, after last: [ID]?) throws(UpdateViolation) {
        func violation(_ words: String) -> UpdateViolation {
            UpdateViolation(index: index, description: "update \(index): \(words)")
        }
        let previous = update.previous.map(id)
        if let last, last != previous {
            throw violation(
                "its previous snapshot (\(previous.count) rows) is not the last update's (\(last.count) rows)")
        }
        let rows = update.rows.map(id)
        var seen = Set<ID>()
        if let repeated = rows.first(where: { !seen.insert($0).inserted }) {
            throw violation("id \(repeated) appears twice in the snapshot")
        }
        switch update.replay(on: update.previous) {
        case .failure(let failure):
            throw violation("\(describeChange(update.change)) \(failure.reason)")
        case .success(let replayed):
            let replayedIDs = replayed.map(id)
            guard replayedIDs != rows else { return }
            let head = "replaying \(describeChange(update.change)) on \(previous.count) rows gives"
            if replayedIDs.count != rows.count {
                throw violation("\(head) \(replayedIDs.count) rows, the snapshot has \(rows.count)")
            }
            let row = zip(replayedIDs, rows).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
            throw violation("\(head) id \(replayedIDs[row]) at row \(row), the snapshot has id \(rows[row])")
        }
    }
}

extension UpdateRecorder where ID == Row, Row: Hashable {
    /// Creates a recorder fed by ``record(_:)`` alone, whose rows are their own identity.
    public convenience init() {
        self.init(id: { $0 })
    }
}
