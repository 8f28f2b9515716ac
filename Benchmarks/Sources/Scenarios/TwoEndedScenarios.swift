import Reactive
import Stapler

// P4-P5: the two-ended list of the paging engine, through the `Paginator` and an offset source.
//
// P4 prepends a long list page by page (with its append twin as the reference), P5 edits one row of a
// long list over and over (D1, a keyed refresh, is in KeyedRefreshScenarios.swift). Every
// source answers synchronously, so what is measured is the engine and its storage.

/// The paginator of every P4, P5 and D1 scenario: rows, offsets, the response as metadata, no query, no error.
typealias RowList = Paginator<Row, Int, Void, RowsResponse, Never>

/// P4 at N = 100k and 1M, P5, and D1 at 1,000 and 10,000 rows, each with its reference.
func twoEndedScenarios() -> [Scenario] {
    [100_000, 1_000_000].flatMap(p4) + p5() + [1_000, 10_000].flatMap(d1)
}

/// A paginator over `total` rows in pages of 100, from a synchronous offset source.
///
/// - Parameters:
///   - total: How many rows the source has.
///   - initialKey: The offset the list opens at.
///   - deduplicates: Whether the paginator deduplicates rows by `id`.
/// - Returns: The paginator, not loaded yet.
func rowList(total: Int, initialKey: Int = 0, deduplicates: Bool = false) -> RowList {
    let source = syncSource(total: total)
    return RowList(
        source: .offset { offset, size, _ in source(offset, size) }, initialKey: initialKey,
        options: PagingOptions(pageSize: 100, deduplication: deduplicates ? .by(\.id) : nil))
}

// MARK: - P4: prepending a long list

/// P4: a `Paginator` opens at the last page of N rows (`initialKey: N - 100`) and calls
/// `loadPreviousPage()` up to the top, in pages of 100, while an observer keeps every `items` snapshot.
///
/// Beside it, **P4-append** does the same load downwards through the same paginator from offset 0 with
/// `loadNextPage()`, so the two ends can be compared, and a peak-heap variant of the prepend samples the
/// live heap at every snapshot (in percent of the items' size, as P1's).
private func p4(items: Int) -> [Scenario] {
    /// Opens the list (inside the measurement, as P1 does) and pages it to the end in `direction`.
    func load(_ items: Int, prepending: Bool, keeper: SnapshotKeeper, meter: Meter) -> RowList {
        let pages = (items + 99) / 100
        let list = rowList(total: items, initialKey: prepending ? (pages - 1) * 100 : 0)
        list.items.signal.observeValues { keeper.keep($0) }
        meter.start()
        list.refresh()
        for _ in 1..<pages {
            if prepending { list.loadPreviousPage() } else { list.loadNextPage() }
        }
        meter.stop()
        return list
    }
    /// Checks that the list holds every row in order and that every page left one snapshot.
    func checkLoaded(_ list: RowList, _ keeper: SnapshotKeeper, _ items: Int, _ name: String) {
        let loaded = list.items.value
        check(loaded.count == items, "\(name) loaded \(loaded.count) of \(items)")
        check(loaded.first?.id == 0 && loaded.last?.id == items - 1, "\(name)'s rows are out of order")
        check(keeper.snapshots.count == (items + 99) / 100, "\(name) kept \(keeper.snapshots.count) snapshots")
    }
    return [
        Scenario("P4-prepend-N=\(items)", size: items, measures: .memory) { items, meter in
            let keeper = SnapshotKeeper(samplesHeap: false)
            let list = load(items, prepending: true, keeper: keeper, meter: meter)
            checkLoaded(list, keeper, items, "P4")
            check(list.snapshot.value.leadingCount == items - 100, "P4's leading count is wrong")
        },
        Scenario("P4-append-N=\(items)", size: items, measures: .memory) { items, meter in
            let keeper = SnapshotKeeper(samplesHeap: false)
            let list = load(items, prepending: false, keeper: keeper, meter: meter)
            checkLoaded(list, keeper, items, "P4-append")
        },
        Scenario("P4-peak-heap-N=\(items)", size: items, measures: .peakHeap) { items, meter in
            let keeper = SnapshotKeeper(samplesHeap: true)
            let list = load(items, prepending: true, keeper: keeper, meter: .none)
            checkLoaded(list, keeper, items, "P4 peak heap")
            meter.record(keeper.peakHeap * 100 / (items * MemoryLayout<Row>.stride))
        },
    ]
}

// MARK: - P5: editing one row of a long list

/// A seeded generator (SplitMix64), so every run edits the same rows and shuffles the same way.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// A paginator with `rows` rows loaded in pages of 100 (unmeasured), an observer keeping every `items`
/// snapshot in `keeper` from the first page on.
func loadedRowList(rows: Int, keeper: SnapshotKeeper) -> RowList {
    let list = rowList(total: rows)
    list.items.signal.observeValues { keeper.keep($0) }
    list.refresh()
    for _ in 1..<(rows + 99) / 100 {
        list.loadNextPage()
    }
    check(list.items.value.count == rows, "P5 loaded \(list.items.value.count) of \(rows)")
    return list
}

/// P5: `replace(at:with:)` of one row at a seeded random index, E times, on a list of 100 × E rows
/// (E = 10,000: a 1,000,000-row list of 10,000 pages), while an observer keeps every `items` snapshot.
///
/// The list is loaded before the measurement; the first edit of a loaded list moves the pages of its
/// bottom chain into the tree (once), every later one copies one page and one path of the tree.
/// **P5-first-edit** measures that first edit alone, on the same list. **P5-peak-heap** samples the live
/// heap at every snapshot during the edits and records how much it grew past the loaded list, in percent
/// of the items' own size (100 × E × 16 bytes): 1% is 16 bytes per edit.
private func p5() -> [Scenario] {
    /// The seeded indices of `edits` edits of a list of `rows` rows.
    func editedIndices(_ edits: Int, rows: Int) -> [Int] {
        var generator = SeededGenerator(state: 0x5EED)
        return (0..<edits).map { _ in Int.random(in: 0..<rows, using: &generator) }
    }
    /// Replaces the row at each of `indices` with a new version of it.
    func edit(_ list: RowList, at indices: [Int]) {
        for index in indices {
            let outcome = list.replace(at: index, with: Row(id: index, score: -Double(index)))
            check(outcome == .applied, "P5's edit at \(index) was \(outcome)")
        }
    }
    return [
        Scenario("P5-replace", size: 10_000, measures: .memory) { edits, meter in
            let rows = 100 * edits
            let keeper = SnapshotKeeper(samplesHeap: false)
            let list = loadedRowList(rows: rows, keeper: keeper)
            let indices = editedIndices(edits, rows: rows)
            meter.start()
            edit(list, at: indices)
            meter.stop()
            check(keeper.snapshots.count == rows / 100 + edits, "P5 kept \(keeper.snapshots.count) snapshots")
            let last = indices[edits - 1]
            check(list.items.value[last].score == -Double(last), "P5's last edit is not in the list")
        },
        Scenario("P5-first-edit", size: 10_000) { edits, meter in
            let rows = 100 * edits
            let keeper = SnapshotKeeper(samplesHeap: false)
            let list = loadedRowList(rows: rows, keeper: keeper)
            let indices = editedIndices(1, rows: rows)
            meter.start()
            edit(list, at: indices)
            meter.stop()
            check(keeper.snapshots.count == rows / 100 + 1, "P5's first edit kept \(keeper.snapshots.count)")
        },
        Scenario("P5-peak-heap", size: 10_000, measures: .peakHeap) { edits, meter in
            let rows = 100 * edits
            let keeper = SnapshotKeeper(samplesHeap: false)
            let list = loadedRowList(rows: rows, keeper: keeper)
            let indices = editedIndices(edits, rows: rows)
            keeper.startSampling()
            edit(list, at: indices)
            check(keeper.snapshots.count == rows / 100 + edits, "P5 peak heap kept \(keeper.snapshots.count)")
            meter.record(keeper.peakHeap * 100 / (rows * MemoryLayout<Row>.stride))
        },
    ]
}
