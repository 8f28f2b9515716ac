import Foundation
import Reactive
import Stapler
import StaplerSQLite

// S4: scrolling a 1M-row collection end to end in a list over the SQLite store with a memory bound
// (`maxPages: 5`, pages of 100), as a screen does: a preload at the last row shown, over and over. The
// issue's limit: resident memory at the end within 10 MiB of where it was after the first quarter. The
// scenario prints both (from /proc/self/statm) and records the growth in KiB. It runs through `Profile`
// only: `.build/release/Profile S4-scroll-rss-N=1000000`.

/// The resident set of this process, in bytes (0 where /proc is missing).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// S4 at 1M posts.
func storeScrollScenarios() -> [Scenario] {
    [
        Scenario("S4-scroll-rss-N=1000000", size: 1_000_000, prepare: prepareFeed) { size, meter in
            let store = FixtureFiles.shared.feed(size).store
            let list = Paginator(
                store: store, collection: "feed", pageSize: 100,
                options: PagingOptions(prefetchDistance: 20, maxPages: 5), scheduler: TestScheduler())
            var quarter: Int?
            var most = 0
            meter.start()
            while !list.isEndReached.value {
                let items = list.items.value
                list.preload(index: items.count - 1)
                let last = items.last?.id ?? 0
                most = max(most, items.count)
                if quarter == nil, last >= size / 4 { quarter = residentBytes() }
            }
            meter.stop()
            let end = residentBytes()
            let atQuarter = quarter ?? end
            print(
                "S4: resident \(atQuarter / 1_024) KiB after the first quarter, \(end / 1_024) KiB at the end "
                    + "(\((end - atQuarter) / 1_024) KiB more); at most \(most) rows shown; last row "
                    + "\(list.items.value.last?.id ?? -1)")
            meter.record((end - atQuarter) / 1_024)
            check(list.items.value.last?.id == size - 1, "S4 ended at \(String(describing: list.items.value.last))")
        }
    ]
}
