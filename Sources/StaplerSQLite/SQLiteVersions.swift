/// The data version a SQLite store knows, as a state machine: the file's commit counter, which every
/// `SQLiteStore` on the file increments in each commit, as far as this store has seen it.
///
/// A counter value above the known version that this store did not commit is another connection's
/// commit. Each transition returns the version of such a commit to report, or `nil`; the store applies it
/// under its lock and queues the report there, so reports keep commit order with the store's own:
/// a value seen while the store's own commit is in flight and newer than it waits until that commit is
/// queued.
struct SQLiteVersions {
    /// The newest version reported, by this store's commits or another connection's.
    private(set) var version: UInt64
    /// The reads in progress (a `:memory:` store's commits wait for them).
    var reads = 0
    /// The version of this store's commit in flight, between its counter's increment and its report.
    private var committing: UInt64?
    /// The newest counter value of another connection seen while `committing`.
    private var laterExternal: UInt64 = 0

    /// The versions of a file whose counter is `version`.
    init(version: UInt64) {
        self.version = version
    }

    /// Records that the file's counter was `seen` (by a read, a check or a write); returns the version of
    /// another connection's commit to report now.
    mutating func saw(_ seen: UInt64) -> UInt64? {
        guard seen > version else { return nil }
        if let committing {
            if seen == committing { return nil }
            if seen > committing {
                laterExternal = max(laterExternal, seen)
                return nil
            }
        }
        version = seen
        return seen
    }

    /// Records that this store's transaction, which found the counter at `previous`, will commit
    /// `version`; returns the version of another connection's commit to report before it.
    mutating func willCommit(_ version: UInt64, after previous: UInt64) -> UInt64? {
        precondition(committing == nil, "SQLiteVersions.willCommit: a commit of \(committing!) is in flight")
        let external = saw(previous)
        committing = version
        return external
    }

    /// Records that the commit in flight ended.
    ///
    /// - Parameter committed: The version committed (the caller reports it right before the result), or
    ///   `nil` when the commit failed.
    /// - Returns: The version of another connection's commit seen meanwhile, to report after it.
    mutating func didCommit(_ committed: UInt64?) -> UInt64? {
        committing = nil
        if let committed { version = max(version, committed) }
        defer { laterExternal = 0 }
        guard laterExternal > version else { return nil }
        version = laterExternal
        return laterExternal
    }
}
