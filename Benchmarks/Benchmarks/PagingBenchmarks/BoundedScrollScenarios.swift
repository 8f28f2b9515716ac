import CHeapStats
import Reactive
import Scenarios
import Stapler

// P7: scrolling a long list end to end and back under a memory bound, and the live heap it needs.
//
// A `Paginator` with `maxPages: 20` over a synchronous offset source of N rows (pages of 100) is driven
// the way a list drives it: `preload(index:)` on its last row until the bottom ends, then on its first
// row until the top ends. Each call loads one page at that edge, and the bound drops a page at the other
// end in the same update. An observer holds the latest `items` snapshot, as a screen would.

/// The pages a P7 list keeps, and the pages its peak heap is measured against.
let boundedMaxPages = 20
let boundedHeapBudgetPages = 30

/// Scrolls `list` from its first page to the bottom and back to the top with `preload(index:)` at its
/// edges; returns how many pages it loaded.
///
/// - Parameters:
///   - list: A paginator with `maxPages`, not loaded yet.
///   - latest: The observer of its `items`, which may sample the heap at every snapshot.
///   - meter: Measures the scroll, the opening page included.
func scrollEndToEndAndBack(_ list: BoundedRowList, latest: LatestItems, meter: Meter) {
    meter.start()
    list.refresh()
    while !list.loadStates.value.append.isEndReached {
        list.preload(index: latest.items.count - 1)
    }
    while !list.loadStates.value.prepend.isEndReached {
        list.preload(index: 0)
    }
    meter.stop()
}

/// Opens a P7 list over `items` rows, observed by `latest`, with the bound of 20 pages.
func boundedList(items: Int, counter: RequestCounter, latest: LatestItems) -> BoundedRowList {
    let list = BoundedRowList(
        source: boundedSource(total: items, counter: counter),
        options: PagingOptions(pageSize: 100, maxPages: boundedMaxPages))
    list.items.signal.observeValues { latest.keep($0) }
    return list
}

/// Checks that the scroll went to the end and back within the bound, reloading each dropped page once.
func checkScrolled(_ list: BoundedRowList, _ counter: RequestCounter, _ items: Int, _ name: String) {
    let pages = (items + 99) / 100
    let kept = min(pages, boundedMaxPages)
    let rows = list.items.value
    check(list.pages.value == kept, "\(name) keeps \(list.pages.value) pages, not \(kept)")
    check(rows.first?.id == 0 && rows.count == min(items, kept * 100), "\(name) did not end at the top")
    check(counter.count == pages + pages - kept, "\(name) made \(counter.count) requests for \(pages) pages")
}

/// P7 at N = 100k and 1M: the scroll's time and mallocs, and its peak live heap against 30 pages' size.
func boundedScrollScenarios() -> [Scenario] {
    [100_000, 1_000_000].flatMap { items in
        [
            Scenario("P7-bounded-scroll-N=\(items)", size: items) { items, meter in
                let counter = RequestCounter()
                let latest = LatestItems()
                let list = boundedList(items: items, counter: counter, latest: latest)
                scrollEndToEndAndBack(list, latest: latest, meter: meter)
                checkScrolled(list, counter, items, "P7")
            },
            Scenario("P7-peak-heap-N=\(items)", size: items, measures: .peakHeap) { items, meter in
                let counter = RequestCounter()
                let latest = LatestItems()
                let list = boundedList(items: items, counter: counter, latest: latest)
                latest.startSampling()
                scrollEndToEndAndBack(list, latest: latest, meter: .none)
                checkScrolled(list, counter, items, "P7 peak heap")
                let budget = boundedHeapBudgetPages * 100 * MemoryLayout<BoundedRow>.stride
                meter.record(latest.peakHeap * 100 / budget)
            },
        ]
    }
}
