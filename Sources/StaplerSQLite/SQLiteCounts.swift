import Reactive

/// The collections' counts as reads last counted them, each with the data version it holds at, shared by
/// a store's reads.
///
/// Counting a collection is a walk of its index, O(n): a list asks for the count with every page it reads,
/// and a million-row collection would be walked on each. A count holds for as long as the file's commit
/// counter stays where it was, so a read at that version takes it from here.
final class SQLiteCounts: Sendable {
    // Guarded by its own lock (`LockedState`): the latest count of each collection and its version.
    private let counts = LockedState<[String: (version: UInt64, count: Int)]>([:])

    /// The count of `collection` at `version`, if a read counted it there.
    func count(of collection: String, at version: UInt64) -> Int? {
        counts.withLock { counts in
            guard let known = counts[collection], known.version == version else { return nil }
            return known.count
        }
    }

    /// Records that `collection` holds `count` rows at `version` (a newer count replaces an older one).
    func record(_ count: Int, of collection: String, at version: UInt64) {
        counts.withLock { counts in
            if let known = counts[collection], known.version > version { return }
            counts[collection] = (version, count)
        }
    }
}
