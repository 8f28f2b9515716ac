import Reactive
import Scenarios
import Stapler

// P9: a transformed list (`map`, `filter` and date separators) over N = 100k and 1M rows loaded in pages of
// 100 from a synchronous source, with an observer that keeps every transformed snapshot. Beside it, the
// same loads without a transform: the difference is the transform's own cost, which must grow with N only
// (O(items) in total, O(page) per page).

/// A row of the feed: its id and its day (250 rows a day).
enum FeedRow: Sendable {
    case post(id: Int)
    case day(Int)
}

/// The transform of P9: every row but each seventh becomes a post row, and a day row goes before the first
/// post of each day (and at the top of the list).
let feedTransform = ListTransform<BoundedRow, BoundedRow>()
    .filter { !$0.id.isMultiple(of: 7) }
    .map { FeedRow.post(id: $0.id) }
    .separators { before, after in
        guard case .post(let id)? = after else { return nil }
        if case .post(let previous)? = before, previous / 250 == id / 250 { return nil }
        return .day(id / 250)
    }

/// Keeps every transformed snapshot an observer receives (the benchmark runs on one thread).
final class TransformedSnapshots: @unchecked Sendable {
    // Guarded by the benchmark's single thread: every notification arrives on the thread that loads.
    @exclusivity(unchecked) var kept: [TransformedItems<FeedRow>] = []
}

/// Loads `items` rows into `list` in pages of 100.
func loadAll(_ list: BoundedRowList, items: Int) {
    list.refresh()
    for _ in 1..<(items + 99) / 100 {
        list.loadNextPage()
    }
}

/// P9 at N = 100k and 1M: transformed, and untransformed for comparison.
func transformScenarios() -> [Scenario] {
    [100_000, 1_000_000].flatMap { items in
        [
            Scenario("P9-transformed-N=\(items)", size: items) { items, meter in
                let list = BoundedRowList(source: boundedSource(total: items, counter: RequestCounter()), pageSize: 100)
                let feed = list.transformed(by: feedTransform)
                let snapshots = TransformedSnapshots()
                snapshots.kept.reserveCapacity(items / 100 + 1)
                feed.items.signal.observeValues { snapshots.kept.append($0) }
                meter.start()
                loadAll(list, items: items)
                meter.stop()
                let expected = items - (items + 6) / 7 + (items + 249) / 250
                check(feed.items.value.count == expected, "P9 shows \(feed.items.value.count) rows of \(expected)")
                check(snapshots.kept.count == (items + 99) / 100, "P9 kept \(snapshots.kept.count) snapshots")
            },
            Scenario("P9-untransformed-N=\(items)", size: items) { items, meter in
                let list = BoundedRowList(source: boundedSource(total: items, counter: RequestCounter()), pageSize: 100)
                let snapshots = LatestItems()
                list.items.signal.observeValues { snapshots.items = $0 }
                meter.start()
                loadAll(list, items: items)
                meter.stop()
                check(list.items.value.count == items, "P9 loaded \(list.items.value.count) of \(items)")
            },
        ]
    }
}
