import Reactive
import TestSupport
import Testing

@testable import Stapler

/// What the memory bound keeps of the pages it drops: runs for regular keys, every key for cursors.
@Suite("Memory bound: the dropped pages' keys")
struct DroppedPagesTests {
    typealias List = Paginator<Int, Int, Void, Void, ServerError>

    /// A synchronous source over `total` rows keyed by offset (a page says its previous and next offsets
    /// and its position), recording every key requested.
    static func offsetSource(total: Int, requests: Locked<[Int]>) -> PageSource<Int, Int, Void, Void, ServerError> {
        PageSource(firstKey: 0) { request in
            requests.append(request.key)
            let end = min(request.key + request.pageSize, total)
            let page = Page<Int, Int, Void>(
                items: Array(request.key..<end), previousKey: request.key > 0 ? max(0, request.key - 10) : nil,
                nextKey: end < total ? end : nil, total: total)
            return SignalProducer(value: page)
        }
    }

    /// The machine of `list`, read under its engine's lock.
    static func machine<Value>(of list: List, _ read: (PagingMachine<Int, Int, Void, Void, ServerError>) -> Value)
        -> Value
    {
        list.engine.state.withLock { read($0.machine) }
    }

    /// Preloads the last row until the bottom ends, then the first row until the top ends.
    static func scrollDownAndBack(_ list: List, between: () -> Void = {}) {
        while !list.loadStates.value.append.isEndReached, list.loadStates.value.append.error == nil {
            list.preload(index: list.items.value.count - 1)
        }
        between()
        while !list.loadStates.value.prepend.isEndReached, list.loadStates.value.prepend.error == nil {
            list.preload(index: 0)
        }
    }

    @Test("P29: 10,000 pages of an offset source dropped and reloaded take a few entries, not one per page")
    func P29_offsetDropsTakeConstantEntries() {
        let total = 100_005
        let pages = (total + 9) / 10
        let requests = Locked<[Int]>([])
        let list = List(
            source: Self.offsetSource(total: total, requests: requests),
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        list.refresh()
        var turn = 0
        Self.scrollDownAndBack(list) {
            turn = requests.value.count
            let (dropped, entries, used) = Self.machine(of: list) {
                ($0.list.top.dropped.count, $0.list.top.dropped.storedEntries, $0.list.usedKeys.count)
            }
            #expect(dropped >= pages - 4)
            #expect(entries <= 3, "the top page, one run, and nothing per page: \(entries) entries")
            #expect(used <= 6, "the used keys are the shown pages' and the edges': \(used)")
        }
        let (entries, belowEntries, used) = Self.machine(of: list) {
            ($0.list.top.dropped.storedEntries, $0.list.bottom.dropped.storedEntries, $0.list.usedKeys.count)
        }
        #expect(entries == 0)
        #expect(belowEntries <= 3, "the short last page, one run: \(belowEntries) entries")
        #expect(used <= 6, "\(used) used keys")
        #expect(Array(list.items.value) == Array(0..<30))
        #expect(list.loadStates.value.prepend == .idle(endReached: true))
        let up = Array(requests.value[turn...])
        let droppedOnTheWayDown = stride(from: 0, to: (pages - 3) * 10, by: 10)
        #expect(up == Array(droppedOnTheWayDown.reversed()), "every dropped page reloads with its own key, once")
        #expect(requests.value.count == pages + pages - 3)
    }

    /// A page-number response: the items, and how many the server holds.
    struct NumberedRows: NumberedPageResponse {
        let items: [Int]
        let itemCount: Int?
        var pageCount: Int? { nil }
    }

    @Test("P29: a page-number source's dropped pages take a few entries, and reload by their exact keys")
    func P29_pageNumberDropsTakeConstantEntries() {
        let total = 20_003
        let requests = Locked<[Int]>([])
        let list = Paginator<Int, PageNumberKey, Void, NumberedRows, ServerError>(
            source: .pageNumber(firstPage: 1) { page, size, _ in
                requests.append(page)
                let start = (page - 1) * size
                return SignalProducer(
                    value: NumberedRows(items: Array(start..<min(start + size, total)), itemCount: total))
            },
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        list.refresh()
        let pages = (total + 9) / 10
        while !list.loadStates.value.append.isEndReached { list.preload(index: list.items.value.count - 1) }
        let (dropped, entries) = list.engine.state.withLock {
            ($0.machine.list.top.dropped.count, $0.machine.list.top.dropped.storedEntries)
        }
        #expect(dropped == pages - 3)
        #expect(entries <= 3, "the first page, one run: \(entries) entries")
        let turn = requests.value.count
        while !list.loadStates.value.prepend.isEndReached { list.preload(index: 0) }
        #expect(Array(requests.value[turn...]) == Array((1...(pages - 3)).reversed()))
        #expect(Array(list.items.value) == Array(0..<30))
    }

    @Test("P30: a cursor source's dropped pages reload by their exact keys, and their storage is given back")
    func P30_cursorDropsReloadWithExactKeys() {
        // Keys with no common step (and a stretch of regular ones in the middle): each page names the next.
        let keys = (0..<400).map { $0 < 150 || $0 >= 250 ? $0 * $0 * 7 + $0 % 3 : 200_000 + $0 * 10 }
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let requests = Locked<[Int]>([])
        let source = PageSource<Int, Int, Void, Void, ServerError>(firstKey: 0) { request in
            requests.append(request.key)
            let page = index[request.key]!
            return SignalProducer(
                value: Page(
                    items: Array(page * 10..<page * 10 + 10), nextKey: page + 1 < keys.count ? keys[page + 1] : nil))
        }
        let list = List(source: source, options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        list.refresh()
        var turn = 0
        var capacityAtTheTurn = 0
        Self.scrollDownAndBack(list) {
            turn = requests.value.count
            capacityAtTheTurn = Self.machine(of: list) { $0.list.top.dropped.pages.capacity }
        }
        #expect(Array(requests.value[..<turn]) == keys)
        #expect(Array(requests.value[turn...]) == Array(keys[..<(keys.count - 3)].reversed()))
        #expect(Array(list.items.value) == Array(0..<30))
        let (below, capacity) = Self.machine(of: list) {
            ($0.list.bottom.dropped.allPages.map(\.key), $0.list.top.dropped.pages.capacity)
        }
        #expect(below == Array(keys[3...].reversed()), "the pages dropped at the bottom, farthest first")
        #expect(capacityAtTheTurn >= 250)
        #expect(capacity <= 64, "the top's storage shrank as its pages were reloaded: capacity \(capacity)")
    }

    @Test("P30: a key of a page dropped long ago, sent again by the server, is still a repeated key")
    func P30_repeatOfADroppedKeyFails() {
        let requests = Locked<[Int]>([])
        // Offsets 0, 10, ... 990, but the page at 1,000 leads back to 200, dropped long before.
        let source = PageSource<Int, Int, Void, Void, ServerError>(firstKey: 0) { request in
            requests.append(request.key)
            let next = request.key == 1_000 ? 200 : request.key + 10
            return SignalProducer(
                value: Page(items: Array(request.key..<request.key + 10), previousKey: nil, nextKey: next))
        }
        let list = List(source: source, options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        list.refresh()
        for _ in 0..<200 where list.loadStates.value.append.error == nil {
            list.preload(index: list.items.value.count - 1)
        }
        let entries = Self.machine(of: list) { $0.list.top.dropped.storedEntries }
        #expect(entries <= 2, "the dropped offsets are one run: \(entries) entries")
        #expect(list.loadStates.value.append == .failed(.repeatedKey))
        #expect(requests.value.last == 1_000, "200 is never requested again")
        #expect(Array(list.items.value) == Array(970..<1_000), "nothing loaded is lost")
    }

    @Test("P29: a saved list holds every dropped page, and the restored one reloads each with its key")
    func P29_savedRunsRoundTrip() throws {
        let total = 5_000
        let requests = Locked<[Int]>([])
        let list = List(
            source: Self.offsetSource(total: total, requests: requests),
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        list.refresh()
        for _ in 0..<300 { list.preload(index: list.items.value.count - 1) }
        let saved = try #require(list.savedState)
        #expect(saved.droppedAbove.map(\.key) == Array(stride(from: 0, to: 2_980, by: 10)))
        let again = Locked<[Int]>([])
        let restored = try List(
            restoring: saved, source: Self.offsetSource(total: total, requests: again),
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3))
        #expect(restored.savedState?.droppedAbove == saved.droppedAbove, "saving it again gives the same pages")
        #expect(Self.machine(of: restored) { $0.list.top.dropped.storedEntries } <= 3)
        while !restored.loadStates.value.prepend.isEndReached { restored.preload(index: 0) }
        #expect(again.value == Array(stride(from: 0, to: 2_980, by: 10).reversed()))
        #expect(Array(restored.items.value) == Array(0..<30))
    }

    @Test("P29: pushing and popping any mix of regular and irregular pages gives back exactly what went in")
    func P29_runsAreExact() {
        var generator = SplitMix(seed: 2_930)
        var runsMade = 0
        for _ in 0..<200 {
            var dropped = DroppedPages<Int>()
            var pushed: [PageKeys<Int>] = []
            var key = Int.random(in: -1_000...1_000, using: &generator)
            var step = 10
            for _ in 0..<Int.random(in: 0...120, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: step = Int.random(in: -30...30, using: &generator)
                case 1: key += Int.random(in: 1...5, using: &generator)
                default: break
                }
                key += step == 0 ? 1 : step
                let page = PageKeys(
                    key: key, previousKey: Int.random(in: 0..<8, using: &generator) == 0 ? nil : key - 10,
                    nextKey: key + 10, itemsBefore: Int.random(in: 0..<8, using: &generator) == 0 ? nil : key + 5)
                guard !pushed.contains(where: { $0.key == key }) else { continue }
                dropped.push(page, edgeKey: 42_000)
                pushed.append(page)
                #expect(dropped.nextKey == key)
            }
            #expect(dropped.allPages.map(SavedPageKeys.init) == pushed.map(SavedPageKeys.init))
            #expect(dropped.runs.count <= DroppedPages<Int>.maximumRuns)
            runsMade += dropped.runs.count
            let keys = Set(pushed.map(\.key))
            let near = keys.flatMap { [$0 - 5, $0 - 1, $0, $0 + 1, $0 + 5] }
            let probes = near + (0..<200).map { _ in Int.random(in: -6_000...6_000, using: &generator) }
            for probe in probes where keys.contains(probe) != dropped.contains(probe) {
                Issue.record("contains(\(probe)) is \(dropped.contains(probe))")
                break
            }
            while let last = pushed.popLast() {
                #expect(dropped.nextKey == last.key)
                #expect(dropped.pop() == pushed.last?.key ?? 42_000)
            }
            #expect(dropped.isEmpty && dropped.storedEntries == 0)
        }
        #expect(runsMade > 200, "the walks made runs to check: \(runsMade)")
    }

    @Test("P29: page-number keys make runs too, and give back exactly what went in")
    func P29_pageNumberRuns() {
        var dropped = DroppedPages<PageNumberKey>()
        let keys = (1...500).map { PageNumberKey(page: $0, itemsBefore: ($0 - 1) * 10) }
        for key in keys {
            dropped.push(
                PageKeys(
                    key: key, previousKey: nil,
                    nextKey: PageNumberKey(page: key.page + 1, itemsBefore: key.itemsBefore + 10),
                    itemsBefore: key.itemsBefore),
                edgeKey: nil)
        }
        #expect(dropped.storedEntries == 2, "one run")
        #expect(dropped.allPages.map(\.key) == keys)
        #expect(dropped.contains(PageNumberKey(page: 250, itemsBefore: 2_490)))
        #expect(!dropped.contains(PageNumberKey(page: 250, itemsBefore: 2_491)), "both integers must match")
        #expect(!dropped.contains(PageNumberKey(page: 501, itemsBefore: 5_000)))
        for key in keys.reversed() {
            #expect(dropped.nextKey == key)
            _ = dropped.pop()
        }
        #expect(dropped.isEmpty)
    }

    @Test("P30: cursor keys are kept one by one, in order")
    func P30_cursorKeysKeptOneByOne() {
        var dropped = DroppedPages<String?>()
        let keys = (0..<50).map { "token-\($0)" }
        for key in keys { dropped.push(PageKeys(key: key, previousKey: nil, nextKey: "x"), edgeKey: nil) }
        #expect(dropped.runs.isEmpty)
        #expect(dropped.allPages.map(\.key) == keys)
        #expect(dropped.contains("token-7") && !dropped.contains("token-50") && !dropped.contains(nil))
        for key in keys.reversed() {
            #expect(dropped.nextKey == key)
            _ = dropped.pop()
        }
        #expect(dropped.isEmpty)
    }
}
