import Reactive
import Stapler

// P9 (T1 of issue 32): a transformed list (`filter`, `map` and date separators) over N = 100k and 1M rows
// loaded in pages of 100 from a synchronous source, with an observer that keeps every transformed snapshot.
// Beside it: the same loads without a transform, the same loads through the identity transform, and the
// floor, the same closures run on plain arrays page by page with no paginator.

/// A row of the feed: its id and its day (250 rows a day).
public enum FeedRow: Sendable {
    case post(id: Int)
    case day(Int)
}

/// The filter of P9: every seventh row out.
public let feedIsIncluded: @Sendable (BoundedRow) -> Bool = { !$0.id.isMultiple(of: 7) }

/// The map of P9: a row becomes a post row.
public let feedPost: @Sendable (BoundedRow) -> FeedRow = { FeedRow.post(id: $0.id) }

/// The separators of P9: a day row goes before the first post of each day (and at the top of the list).
public let feedDay: @Sendable (FeedRow?, FeedRow?) -> FeedRow? = { before, after in
    guard case .post(let id)? = after else { return nil }
    if case .post(let previous)? = before, previous / 250 == id / 250 { return nil }
    return .day(id / 250)
}

/// The transform of P9: every row but each seventh becomes a post row, and a day row goes before the first
/// post of each day (and at the top of the list).
public let feedTransform = ListTransform<BoundedRow, BoundedRow>()
    .filter(feedIsIncluded)
    .map(feedPost)
    .separators(feedDay)

/// The number of rows P9's transform shows for `items` source rows.
public func feedRowCount(_ items: Int) -> Int {
    items - (items + 6) / 7 + (items + 249) / 250
}

/// Keeps every transformed snapshot an observer receives (one thread at a time).
public final class TransformedSnapshots<Row: Sendable>: @unchecked Sendable {
    // Guarded by the benchmark's single thread: every notification arrives on the thread that loads (in
    // P9-delivery, on the delivery queue, whose blocks run one at a time).
    /// The snapshots received, in order.
    @exclusivity(unchecked) public var kept: [TransformedItems<Row>] = []

    /// No snapshot kept.
    public init() {}
}

/// Keeps every page the floor of P9 transforms (the benchmark runs on one thread).
final class FloorPages: @unchecked Sendable {
    // Guarded by the benchmark's single thread.
    @exclusivity(unchecked) var kept: [[FeedRow]] = []
    @exclusivity(unchecked) var count = 0
}

/// Loads `items` rows into `list` in pages of 100.
public func loadAll(_ list: BoundedRowList, items: Int) {
    list.refresh()
    for _ in 1..<(items + 99) / 100 {
        list.loadNextPage()
    }
}

/// The floor of P9: each page of 100 rows made as the source makes it, then filtered, mapped and given its
/// day rows on a plain array (the last row of the page before is the first separator's `before`), and kept.
func transformFloor(items: Int, into pages: FloorPages) {
    var last: FeedRow? = nil
    var offset = 0
    while offset < items {
        let end = min(offset + 100, items)
        let rows = (offset..<end).map { BoundedRow(id: $0, score: Double($0)) }
        var page: [FeedRow] = []
        page.reserveCapacity(rows.count * 2)
        for row in rows where feedIsIncluded(row) {
            let post = feedPost(row)
            if let day = feedDay(last, post) { page.append(day) }
            page.append(post)
            last = post
        }
        pages.count += page.count
        pages.kept.append(page)
        offset = end
    }
}

/// P9 at N = 100k and 1M: transformed, through the identity transform, untransformed, and the floor.
public func transformScenarios() -> [Scenario] {
    [100_000, 1_000_000].flatMap { items in
        [
            Scenario("P9-transformed-N=\(items)", size: items) { items, meter in
                let list = BoundedRowList(source: boundedSource(total: items, counter: RequestCounter()), pageSize: 100)
                let feed = list.transformed(by: feedTransform)
                let snapshots = TransformedSnapshots<FeedRow>()
                snapshots.kept.reserveCapacity(items / 100 + 1)
                feed.items.signal.observeValues { snapshots.kept.append($0) }
                meter.start()
                loadAll(list, items: items)
                meter.stop()
                let expected = feedRowCount(items)
                check(feed.items.value.count == expected, "P9 shows \(feed.items.value.count) rows of \(expected)")
                check(snapshots.kept.count == (items + 99) / 100, "P9 kept \(snapshots.kept.count) snapshots")
            },
            Scenario("P9-floor-N=\(items)", size: items) { items, meter in
                let pages = FloorPages()
                pages.kept.reserveCapacity(items / 100 + 1)
                meter.start()
                transformFloor(items: items, into: pages)
                meter.stop()
                let expected = feedRowCount(items)
                check(pages.count == expected, "P9-floor shows \(pages.count) rows of \(expected)")
            },
            Scenario("P9-identity-N=\(items)", size: items) { items, meter in
                let list = BoundedRowList(source: boundedSource(total: items, counter: RequestCounter()), pageSize: 100)
                let same = list.transformed { $0 }
                let snapshots = TransformedSnapshots<BoundedRow>()
                same.items.signal.observeValues { snapshots.kept = [$0] }
                meter.start()
                loadAll(list, items: items)
                meter.stop()
                check(same.items.value.count == items, "P9-identity shows \(same.items.value.count) rows of \(items)")
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
