import CHeapStats
import Reactive
import Stapler

// P1-P3: the paging engine under load, through the `Stapler` facade and the `Paginator` (P4-P5 and D1, the
// two-ended list: prepends, edits and a keyed refresh, are in TwoEndedScenarios.swift and
// KeyedRefreshScenarios.swift).
//
// Sources are synchronous (a `SignalProducer(value:)` per page) or never answer (a page in flight), so
// what is measured is the engine, not a network. `size` is what the issue sets; the smoke run passes less.

/// P1 at each N with its floor, P1a and P1r (AppPageScenarios.swift), P2 with its lock reference, P3,
/// then P4, P5 and D1.
public func pagingScenarios() -> [Scenario] {
    [100_000, 200_000, 400_000, 1_000_000].flatMap(p1) + appPageScenarios() + p2() + p3() + twoEndedScenarios()
}

/// One row of a list: 16 bytes, no reference, so the items' own size is `count * 16` bytes.
struct Row: Sendable, Equatable {
    let id: Int
    let score: Double
}

/// An offset + total response.
struct RowsResponse: PaginatedResponse {
    let items: [Row]
    let total: Int
}

/// The rows `offset..<offset + count`.
func rows(from offset: Int, count: Int) -> [Row] {
    (offset..<offset + count).map { Row(id: $0, score: Double($0)) }
}

/// A synchronous offset source over `total` rows that answers at once below `answeredBelow` and never
/// answers from there on (that page stays in flight).
func syncSource(
    total: Int, answeredBelow: Int = .max
) -> @Sendable (_ offset: Int, _ size: Int) -> SignalProducer<RowsResponse, Never> {
    { offset, size in
        guard offset < answeredBelow else { return .never }
        let response = RowsResponse(items: rows(from: offset, count: min(size, total - offset)), total: total)
        return SignalProducer(value: response)
    }
}

// MARK: - P1: loading a long list

/// Keeps every snapshot an observer received.
final class SnapshotKeeper: @unchecked Sendable {
    // Guarded by the benchmark's single thread: the source is synchronous, so every notification arrives
    // on the thread that loads.
    @exclusivity(unchecked) var snapshots: [PagedItems<Row>] = []
    @exclusivity(unchecked) var peakHeap = 0
    @exclusivity(unchecked) var baselineHeap: Int
    @exclusivity(unchecked) var samplesHeap: Bool

    init(samplesHeap: Bool) {
        self.samplesHeap = samplesHeap
        baselineHeap = samplesHeap ? liveHeapBytes() : 0
    }

    /// Starts sampling the live heap from now on: ``peakHeap`` becomes the most it grew past this point.
    func startSampling() {
        samplesHeap = true
        peakHeap = 0
        baselineHeap = liveHeapBytes()
    }

    func keep(_ items: PagedItems<Row>) {
        snapshots.append(items)
        if samplesHeap {
            peakHeap = max(peakHeap, liveHeapBytes() - baselineHeap)
        }
    }
}

/// The bytes the allocator has handed out and not yet got back, including its own chunk headers.
func liveHeapBytes() -> Int {
    Int(stapler_live_heap_bytes())
}

/// Loads `items` rows into a `Stapler` in pages of 100 from `request` (P1's synchronous source unless
/// given) while an observer keeps every snapshot; `meter` measures the load.
///
/// - Returns: The stapler and the keeper, for the caller to check and release after the measurement.
func loadStapler(
    items: Int,
    request: (@Sendable (_ offset: Int, _ size: Int) -> SignalProducer<RowsResponse, Never>)? = nil,
    keeper: SnapshotKeeper, meter: Meter
) -> (Stapler<RowsResponse, Never>, SnapshotKeeper) {
    let stapler = Stapler(pageSize: 100, request: request ?? syncSource(total: items))
    stapler.items.signal.observeValues { keeper.keep($0) }
    meter.start()
    stapler.initialLoadAction.apply().start()
    for _ in 1..<(items + 99) / 100 {
        stapler.loadNextPageIfNeeded()
    }
    meter.stop()
    return (stapler, keeper)
}

/// P1: a `Stapler` loads N items in pages of 100 from a synchronous source, an observer keeping every snapshot.
///
/// The first scenario measures time, mallocs, the bytes still held afterwards and the resident
/// memory's peak; the second samples the live heap at every snapshot and records its peak in percent of
/// the items' own size (sampling costs time, so it reports nothing else).
private func p1(items: Int) -> [Scenario] {
    [
        Scenario("P1-ours-N=\(items)", size: items, measures: .memory) { items, meter in
            let (stapler, keeper) = loadStapler(items: items, keeper: SnapshotKeeper(samplesHeap: false), meter: meter)
            check(stapler.items.value.count == items, "P1 loaded \(stapler.items.value.count) of \(items)")
            check(keeper.snapshots.count == (items + 99) / 100, "P1 kept \(keeper.snapshots.count) snapshots")
            check(keeper.snapshots.last?.last?.id == items - 1, "P1's last snapshot ends wrong")
        },
        Scenario("P1-peak-heap-N=\(items)", size: items, measures: .peakHeap) { items, meter in
            let (stapler, keeper) = loadStapler(items: items, keeper: SnapshotKeeper(samplesHeap: true), meter: .none)
            check(stapler.items.value.count == items, "P1 peak heap loaded \(stapler.items.value.count)")
            meter.record(keeper.peakHeap * 100 / (items * MemoryLayout<Row>.stride))
        },
        Scenario("P1-floor-N=\(items)", size: items) { items, meter in
            let pages = loadPagesFloor(items: items, meter: meter)
            check(pages.count == (items + 99) / 100, "P1's floor kept \(pages.count) pages")
            check(pages.last?.last?.id == items - 1, "P1's floor ends wrong")
        },
    ]
}

/// P1's floor: the same pages built by the same function, each appended by an observer to its own array
/// of pages, with no paginator between the source and the observer.
///
/// The page's own array is the one allocation a page needs; the array of pages grows by doubling.
///
/// - Returns: The pages, for the caller to check after the measurement.
func loadPagesFloor(items: Int, meter: Meter) -> [[Row]] {
    var pages: [[Row]] = []
    let keep: ([Row]) -> Void = opaque { pages.append($0) }
    meter.start()
    var offset = 0
    while offset < items {
        keep(rows(from: offset, count: min(100, items - offset)))
        offset += 100
    }
    meter.stop()
    return pages
}

// MARK: - P2: next-page requests while a page is in flight

/// P2: `loadNextPageIfNeeded()` called 1,000,000 times while a page is in flight.
///
/// Beside it, the same number of `retry()` calls in the same state: a no-op that goes through the
/// engine's lock and state machine (no gate), the cost every no-op call would have without the gate.
private func p2() -> [Scenario] {
    /// A stapler with its first page loaded and its second in flight.
    func stalledStapler() -> Stapler<RowsResponse, Never> {
        let stapler = Stapler(pageSize: 100, request: syncSource(total: 1_000, answeredBelow: 100))
        stapler.initialLoadAction.apply().start()
        stapler.loadNextPageIfNeeded()
        check(stapler.paginator.state.value.isLoading, "P2: the second page is not in flight")
        return stapler
    }
    return [
        Scenario("P2-ours", size: 1_000_000) { calls, meter in
            let stapler = stalledStapler()
            meter.start()
            for _ in 0..<calls {
                stapler.loadNextPageIfNeeded()
            }
            meter.stop()
            check(stapler.items.value.count == 100, "P2 loaded more than the first page")
        },
        Scenario("P2-lock-reference", size: 1_000_000) { calls, meter in
            let stapler = stalledStapler()
            meter.start()
            for _ in 0..<calls {
                stapler.paginator.retry()
            }
            meter.stop()
            check(stapler.items.value.count == 100, "P2 reference loaded more than the first page")
        },
    ]
}

// MARK: - P3: preloading every row

/// P3: `preload(index:)` for every row of a 1,000,000-row list with more pages to come.
///
/// Rows far from the end are skipped by the gate's index check; the first row within the prefetch
/// distance starts the next page (which stays in flight); the rows after it are skipped by its "loading"
/// flag. Between iterations `cancel()` puts the list back in `data`, outside the measurement.
private func p3() -> [Scenario] {
    var built: (rows: Int, paginator: Paginator<Row, Int, Void, RowsResponse, Never>)?
    return [
        Scenario("P3-ours", size: 1_000_000) { rowCount, meter in
            if built?.rows != rowCount {
                let source = syncSource(total: 2 * rowCount, answeredBelow: rowCount)
                let paginator = Paginator(source: .offset { offset, size, _ in source(offset, size) }, pageSize: 100)
                paginator.refresh()
                for _ in 1..<rowCount / 100 {
                    paginator.loadNextPage()
                }
                built = (rowCount, paginator)
            }
            let list = built!.paginator
            check(list.items.value.count == rowCount, "P3 has \(list.items.value.count) rows")
            check(!list.state.value.isLoading, "P3 starts with a load in flight")
            meter.start()
            for row in 0..<rowCount {
                list.preload(index: row)
            }
            meter.stop()
            check(list.state.value.isLoading, "P3 did not start the next page")
            list.cancel()
        }
    ]
}
