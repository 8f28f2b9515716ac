import Dispatch
import Reactive
import Stapler

// D1: a keyed refresh of the two-ended list, through the `Paginator` and an offset source: the list is
// deduplicated by `id`, and its second generation has rows moved, changed, removed and added. (It was
// P6 before issue 32.) The source answers synchronously, so what is measured is the engine and the keyed
// difference it publishes.

/// A server whose rows the benchmark replaces between two generations.
final class RowServer: @unchecked Sendable {
    // Guarded by the benchmark's single thread: the source is synchronous.
    @exclusivity(unchecked) var rows: [Row]

    init(rows: [Row]) {
        self.rows = rows
    }

    /// The rows `offset..<offset + size` of the current generation, with its total.
    func page(offset: Int, size: Int) -> SignalProducer<RowsResponse, Never> {
        let end = min(offset + size, rows.count)
        let items = offset < end ? Array(rows[offset..<end]) : []
        return SignalProducer(value: RowsResponse(items: items, total: rows.count))
    }
}

/// The latest items change an observer of `updates` heard.
final class PublishedChange: @unchecked Sendable {
    // Guarded by the benchmark's single thread: the source is synchronous. D1-delivered's observer writes
    // it on the delivery queue, one delivery at a time, and the benchmark's thread reads it only after
    // `delivered` says the queue is done.
    @exclusivity(unchecked) var change: ItemsChange?
    /// Signalled on D1-delivered's queue: after the first generation, and when the difference arrives.
    let delivered = DispatchSemaphore(value: 0)
}

/// The rows of D1's second generation: the first's shuffled, with a twentieth of them removed, as many
/// new ids added at random places, and a twentieth of the kept ones changed (a new score).
func refreshedRows(_ rows: [Row]) -> [Row] {
    var generator = SeededGenerator(state: 0xD1FF)
    var refreshed = rows
    refreshed.shuffle(using: &generator)
    let share = rows.count / 20
    refreshed.removeLast(share)
    for index in 0..<share {
        refreshed[index * 19] = Row(id: refreshed[index * 19].id, score: -1)
    }
    for added in 0..<share {
        let row = Row(id: rows.count + added, score: Double(rows.count + added))
        refreshed.insert(row, at: Int.random(in: 0...refreshed.count, using: &generator))
    }
    return refreshed
}

/// D1 at R rows: `refresh(.reloadAll)` of an R-row list deduplicated by `id` (pages of 100), whose
/// second generation holds the same ids shuffled, a twentieth removed, as many added and a twentieth
/// changed (``refreshedRows(_:)``); the refresh reloads every page and publishes one
/// `.difference(ItemsDifference)`, computed on the delivering thread (this one).
///
/// **D1-reference** does the same reload without deduplication: no identities, no difference
/// (`.reloaded`). The difference between the two is what the keyed refresh adds. **D1-floor** computes
/// the same difference's counts on two arrays with typed `Int` ids (``typedDifferenceCounts(from:to:)``),
/// no paginator. **D1-delivered** is the keyed refresh of a paginator delivering on a serial
/// `QueueScheduler`: from the call to `refresh(.reloadAll)` until its observer on that queue has the
/// difference (the difference is computed there, so this is its cost on the thread that delivers it, plus
/// one hop to the queue and back).
func d1(rows: Int) -> [Scenario] {
    /// Loads the first generation (unmeasured), then measures the reload of the second.
    func reload(_ rows: Int, deduplicates: Bool, delivered: Bool = false, meter: Meter) -> ItemsChange? {
        let first = (0..<rows).map { Row(id: $0, score: Double($0)) }
        let server = RowServer(rows: first)
        let queue: QueueScheduler? = delivered ? QueueScheduler(label: "D1-delivered") : nil
        let list = RowList(
            source: .offset { offset, size, _ in server.page(offset: offset, size: size) },
            options: PagingOptions(pageSize: 100, deduplication: deduplicates ? .by(\.id) : nil, deliveringOn: queue))
        let published = PublishedChange()
        list.updates.observeValues {
            published.change = $0.change
            if delivered, case .difference = $0.change { published.delivered.signal() }
        }
        list.refresh()
        for _ in 1..<(rows + 99) / 100 {
            list.loadNextPage()
        }
        if let queue {
            // Every delivery of the first generation is queued before this marker.
            queue.schedule { published.delivered.signal() }
            published.delivered.wait()
        }
        check(list.items.value.count == rows, "D1 loaded \(list.items.value.count) of \(rows)")
        server.rows = refreshedRows(first)
        meter.start()
        list.refresh(.reloadAll)
        if delivered { published.delivered.wait() }
        meter.stop()
        check(Array(list.items.value) == server.rows, "D1's list is not the second generation")
        return published.change
    }
    /// Checks that `change` is the keyed difference of D1's second generation.
    func checkDifference(_ change: ItemsChange?, rows: Int) {
        guard case .difference(let difference) = change else {
            return check(false, "D1 published \(String(describing: change))")
        }
        let share = rows / 20
        check(
            difference.removals.count == share && difference.insertions.count == share
                && difference.updates.count == share,
            "D1's difference is \(difference.operationCount) operations")
    }
    return [
        Scenario("D1-keyed-refresh-N=\(rows)", size: rows) { rows, meter in
            checkDifference(reload(rows, deduplicates: true, meter: meter), rows: rows)
        },
        Scenario("D1-delivered-N=\(rows)", size: rows) { rows, meter in
            checkDifference(reload(rows, deduplicates: true, delivered: true, meter: meter), rows: rows)
        },
        Scenario("D1-reference-N=\(rows)", size: rows) { rows, meter in
            let change = reload(rows, deduplicates: false, meter: meter)
            check(change == .reloaded, "D1's reference published \(String(describing: change))")
        },
        Scenario("D1-floor-N=\(rows)", size: rows) { rows, meter in
            let first = (0..<rows).map { Row(id: $0, score: Double($0)) }
            let second = refreshedRows(first)
            meter.start()
            let counts = typedDifferenceCounts(from: first, to: second)
            meter.stop()
            let share = rows / 20
            check(
                counts.removals == share && counts.insertions == share && counts.updates == share,
                "D1's floor counted \(counts)")
        },
    ]
}

/// D1's floor: the same keyed difference as `ItemsDifference` (match by id in order, the longest
/// increasing run of old indices stays, every other match moves, a match with other content updates),
/// with typed `Int` ids and no `AnyHashable`, on two arrays.
///
/// - Returns: How many removals, insertions, moves and updates the difference has.
func typedDifferenceCounts(
    from old: [Row], to new: [Row]
) -> (removals: Int, insertions: Int, moves: Int, updates: Int) {
    // The first old index of each id; repeats chained through `nextSame`.
    var first: [Int: Int] = [:]
    first.reserveCapacity(old.count)
    var nextSame = [Int](repeating: -1, count: old.count)
    for index in old.indices.reversed() {
        if let later = first.updateValue(index, forKey: old[index].id) { nextSame[index] = later }
    }
    var oldIndexOfNew = [Int](repeating: -1, count: new.count)
    var matched = 0
    for index in new.indices {
        if let candidate = first[new[index].id] {
            oldIndexOfNew[index] = candidate
            matched += 1
            if nextSame[candidate] >= 0 {
                first[new[index].id] = nextSame[candidate]
            } else {
                first[new[index].id] = nil
            }
        }
    }
    // The longest strictly increasing run of old indices (patience sorting): its length is what stays.
    var tails: [Int] = []
    for oldIndex in oldIndexOfNew where oldIndex >= 0 {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if tails[middle] < oldIndex { low = middle + 1 } else { high = middle }
        }
        if low == tails.count { tails.append(oldIndex) } else { tails[low] = oldIndex }
    }
    var updates = 0
    for (index, oldIndex) in oldIndexOfNew.enumerated() where oldIndex >= 0 && old[oldIndex] != new[index] {
        updates += 1
    }
    return (old.count - matched, new.count - matched, matched - tails.count, updates)
}
