/// The rows a user walking a list has seen go by, in order: the list as it stood when its top was
/// reached, then every row the list gained at its bottom after that.
///
/// With a memory bound the final list holds only its last pages, so it cannot show that every item came
/// once; the walk can: it must be every item once, in order. Without a bound it equals the final list.
struct WalkedRows {
    /// The ids walked so far.
    private(set) var ids: [RemoteID] = []
    /// Whether a snapshot lost the row the walk ended on, so rows gained after it could not be placed.
    private(set) var lostItsPlace = false
    private var started = false

    /// Records `rows`, the list of a snapshot, once the list's top was reached.
    mutating func record(_ rows: some BidirectionalCollection<RemoteItem>, topReached: Bool) {
        guard topReached, !lostItsPlace else { return }
        guard started, let last = ids.last else {
            started = true
            ids = rows.map(\.id)
            return
        }
        guard let index = rows.lastIndex(where: { $0.id == last }) else {
            lostItsPlace = true
            return
        }
        ids += rows[rows.index(after: index)...].map(\.id)
    }
}
