import Foundation
import Scenarios
import Stapler

// P8: saving and restoring a loaded list: `savedState`, `Paginator(restoring:)`, and the saved state
// through `JSONEncoder` and `JSONDecoder`, at N = 10k and 100k rows (pages of 100), so that the cost per
// row can be compared between the two sizes. The list is loaded before the measurement; a restore must
// make no request.

/// A saved list of P8's rows.
typealias SavedRows = PagingSavedState<BoundedRow, Int, Void, BoundedRowsResponse>

/// A paginator with `items` rows loaded in pages of 100 (unmeasured), and the counter of its requests.
func loadedBoundedList(items: Int) -> (BoundedRowList, RequestCounter) {
    let counter = RequestCounter()
    let list = BoundedRowList(source: boundedSource(total: items, counter: counter), pageSize: 100)
    list.refresh()
    for _ in 1..<(items + 99) / 100 {
        list.loadNextPage()
    }
    check(list.items.value.count == items, "P8 loaded \(list.items.value.count) of \(items)")
    return (list, counter)
}

/// The saved state of a list of `items` rows (unmeasured).
func savedRows(items: Int) -> SavedRows {
    let (list, _) = loadedBoundedList(items: items)
    guard let saved = list.savedState else {
        fatalError("benchmark scenario failed: P8's list has no saved state")
    }
    return saved
}

/// P8 at N = 10k and 100k: save, restore, encode, decode.
func restoreScenarios() -> [Scenario] {
    [10_000, 100_000].flatMap { items in
        [
            Scenario("P8-save-N=\(items)", size: items) { items, meter in
                let (list, _) = loadedBoundedList(items: items)
                meter.start()
                let saved = list.savedState
                meter.stop()
                check(saved?.items.count == items, "P8 saved \(saved?.items.count ?? 0) of \(items)")
            },
            Scenario("P8-restore-N=\(items)", size: items) { items, meter in
                let saved = savedRows(items: items)
                let counter = RequestCounter()
                meter.start()
                let restored = try? BoundedRowList(
                    restoring: saved, source: boundedSource(total: items, counter: counter), pageSize: 100)
                meter.stop()
                check(restored?.items.value.count == items, "P8 restored \(restored?.items.value.count ?? 0)")
                check(restored?.state.value == .data, "P8's restored list is not in data")
                check(counter.count == 0, "P8's restore made \(counter.count) requests")
            },
            Scenario("P8-encode-json-N=\(items)", size: items) { items, meter in
                let saved = savedRows(items: items)
                meter.start()
                let data = try? JSONEncoder().encode(saved)
                meter.stop()
                check((data?.count ?? 0) > items * 10, "P8 encoded \(data?.count ?? 0) bytes")
            },
            Scenario("P8-decode-json-N=\(items)", size: items) { items, meter in
                guard let data = try? JSONEncoder().encode(savedRows(items: items)) else {
                    return check(false, "P8 could not encode its saved list")
                }
                meter.start()
                let decoded = try? JSONDecoder().decode(SavedRows.self, from: data)
                meter.stop()
                check(decoded?.items.count == items, "P8 decoded \(decoded?.items.count ?? 0) of \(items)")
            },
        ]
    }
}
