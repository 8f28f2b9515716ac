import Reactive

extension PagingEngine {
    /// Loads a page at each edge that row `index` of the latest delivered snapshot is within `distance`
    /// rows of.
    @inlinable
    func preload(index: Int, distance: Int) {
        let shown = publication.value.current.contents.snapshot
        let seen = (shown.leadingCount, shown.listSerial)
        send {
            $0.receivePreload(index: index, distance: distance, seenLeadingCount: seen.0, seenListSerial: seen.1)
        }
    }

    /// Loads a page at each edge that row `index` of a snapshot older than the delivered one (`seen`: its
    /// leading count and list) is within `distance` rows of, and records it as the row last shown.
    @inlinable
    func preload(index: Int, distance: Int, seen: (leadingCount: Int, listSerial: UInt64)) {
        guard index >= 0 else { return }
        gate.recordShown(index, seen: seen)
        // The gate judges indices of older snapshots too: it lets through every index that the rows
        // prepended since could bring within the distance.
        guard preloadsUnderTheLock || gate.allowsPreload(index: index, distance: distance) else { return }
        send {
            $0.receivePreload(
                index: index, distance: distance, seenLeadingCount: seen.leadingCount, seenListSerial: seen.listSerial)
        }
    }
}

extension PagingEngine {
    /// The row last passed to `preload(index:)`, counted from the first page of list `listSerial`; `nil`
    /// when the machine records every preloaded row itself (a memory bound or placeholders send every
    /// preload through it) or when none was passed for that list.
    @inlinable
    func lastShownRow(inList listSerial: UInt64) -> Int? {
        preloadsUnderTheLock ? nil : gate.lastShown(inList: listSerial)
    }
}
