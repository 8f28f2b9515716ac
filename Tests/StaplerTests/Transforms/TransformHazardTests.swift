import Reactive
import Stapler
import TestSupport
import Testing

/// The hazards of transformed lists: filtered pages and indices (P35), separators, headers and footers
/// (P36).
@Suite("Transformed list hazards")
struct TransformHazardTests {
    @Test("P35: a filtered list pages by its source: ends, preload indices and pages that add no row")
    func P35_filterIsAView() {
        let maps = Locked(0)
        let transform = TestTransform(steps: [
            .map { row in
                maps.increment(by: 1)
                return row
            },
            .filter { $0.value.map { !$0.isMultiple(of: 2) } ?? true },
        ])
        let harness = TransformHarness(
            transform, prefetchDistance: 2,
            reference: TestTransform(steps: [.filter { $0.value.map { !$0.isMultiple(of: 2) } ?? true }]))
        harness.paginator.refresh()
        answer(harness.server.last, total: 100)
        #expect(harness.rows == [1, 3, 5, 7, 9].map(TRow.item))
        #expect(harness.mirror.changes == [.reloaded])
        harness.list.preload(index: 2)
        #expect(harness.server.keys == [0], "row 2 comes from source row 5, outside the prefetch distance")
        harness.list.preload(index: 4)
        #expect(harness.server.keys == [0, 10], "row 4 comes from source row 9, near the source's end")
        harness.server.last?.succeed(Response(items: Array(stride(from: 10, to: 30, by: 2)), total: 100))
        #expect(harness.mirror.changes == [.reloaded], "a page of even ids adds no transformed row")
        #expect(!harness.paginator.isEndReached.value)
        #expect(harness.server.keys == [0, 10, 20], "the next page is requested by itself")
        answer(harness.server.last, total: 100)
        #expect(harness.mirror.changes == [.reloaded, .appended(5..<10)])
        _ = harness.paginator.remove(at: 3)
        #expect(harness.mirror.changes.last == .removed(1..<2))
        #expect(maps.value == 30, "map runs once per source item")
        #expect(harness.rows == harness.expected)
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("P35: pages that add no row are followed up to the no-progress limit, then the list waits")
    func P35_emptyPagesAreBounded() {
        let harness = TransformHarness(TestTransform(steps: [.filter { _ in false }]))
        harness.paginator.refresh()
        answer(harness.server.last, total: 1_000)
        while let request = harness.server.pending.last, harness.server.requests.count < 20 {
            answer(request, total: 1_000)
        }
        #expect(harness.server.keys == [0, 10, 20, 30], "three pages in a row added nothing: no fourth")
        #expect(!harness.paginator.isEndReached.value && harness.rows.isEmpty)
    }

    /// Month headers: a section before the first day of each month (day numbers are `month * 100 + day`).
    static let months = TestTransform(steps: [
        .separators { before, after in
            guard let after = after?.value else { return nil }
            return before?.value.map { $0 / 100 } == after / 100 ? nil : .section(after / 100)
        }
    ])

    @Test("P36: a separator needs both neighbours; a month header never repeats across a page seam")
    func P36_separatorsAcrossSeams() {
        let calls = Locked<[String]>([])
        let counted = TestTransform(steps: [
            .separators { before, after in
                calls.append("\(before.map(\.description) ?? "nil")|\(after.map(\.description) ?? "nil")")
                guard let after = after?.value else { return nil }
                return before?.value.map { $0 / 100 } == after / 100 ? nil : .section(after / 100)
            }
        ])
        let harness = TransformHarness(counted, pageSize: 2, reference: Self.months)
        harness.paginator.refresh()
        harness.server.last?.succeed(Response(items: [701, 702], total: 10))
        #expect(harness.rows == [.section(7), .item(701), .item(702)], "nothing after 702 while more may come")
        harness.paginator.loadNextPage()
        harness.server.last?.succeed(Response(items: [703, 801], total: 10))
        #expect(harness.rows == [.section(7), .item(701), .item(702), .item(703), .section(8), .item(801)])
        #expect(harness.mirror.changes == [.reloaded, .appended(3..<6)], "one update; no second July header")
        #expect(calls.value.count == Set(calls.value).count, "once per adjacent pair: \(calls.value)")
        #expect(calls.value.count == 4)
        _ = harness.paginator.remove(at: 3)
        #expect(harness.mirror.changes.last == .removed(4..<6), "August's header goes with its only day")
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("P36: at an open top edge nothing is before the first row; the start's header comes with the first page")
    func P36_topEdge() {
        let harness = TransformHarness(Self.months, pageSize: 2, initialKey: 2)
        harness.paginator.refresh()
        harness.server.last?.succeed(Response(items: [703, 801], total: 4))
        #expect(harness.rows == [.item(703), .section(8), .item(801)], "no top header while pages are above")
        harness.paginator.loadPreviousPage()
        #expect(harness.server.keys == [2, 0])
        harness.server.last?.succeed(Response(items: [701, 702], total: 4))
        #expect(harness.rows == [.section(7), .item(701), .item(702), .item(703), .section(8), .item(801)])
        #expect(harness.mirror.changes.last == .inserted(0..<3), "nothing between 702 and 703")
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("P36: the footer follows the append state by updates of its row, never by a reload")
    func P36_footerUpdates() {
        let transform = TestTransform(steps: [], footer: { .footer($0.status) })
        let harness = TransformHarness(transform, pageSize: 2)
        harness.paginator.refresh()
        harness.server.last?.succeed(Response(items: [1, 2], total: 10))
        #expect(harness.rows == [.item(1), .item(2), .footer(.idle)])
        harness.paginator.loadNextPage()
        #expect(harness.rows.last == .footer(.loading))
        harness.server.last?.fail(.timeout)
        #expect(harness.rows.last == .footer(.failed))
        #expect(harness.mirror.changes.suffix(2) == [.updated(2..<3), .updated(2..<3)])
        harness.paginator.retry()
        harness.server.last?.succeed(Response(items: [3, 4], total: 10))
        #expect(harness.rows == [.item(1), .item(2), .item(3), .item(4), .footer(.idle)])
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("P36: the header follows the top edge by updates of its row")
    func P36_headerUpdates() {
        let transform = TestTransform(steps: [], header: { .header($0.status) })
        let harness = TransformHarness(transform, pageSize: 2, initialKey: 4)
        harness.paginator.refresh()
        #expect(harness.rows == [.header(.loading)], "the refresh loads")
        harness.server.last?.succeed(Response(items: [5, 6], total: 10))
        #expect(harness.rows == [.header(.idle), .item(5), .item(6)])
        harness.paginator.loadPreviousPage()
        harness.server.last?.fail(.timeout)
        #expect(harness.rows.first == .header(.failed))
        #expect(harness.mirror.changes.suffix(2) == [.updated(0..<1), .updated(0..<1)])
        harness.paginator.retry()
        harness.server.last?.succeed(Response(items: [3, 4], total: 10))
        #expect(harness.rows == [.header(.idle), .item(3), .item(4), .item(5), .item(6)])
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("P35: with placeholders, a transformed row preloads by its source row's slot")
    func P35_preloadWithPlaceholders() {
        let server = TwoEndedServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q", initialKey: 50,
            options: PagingOptions(pageSize: 10, prefetchDistance: 2, placeholders: .shown))
        let list = paginator.transformed { $0.filter { !$0.isMultiple(of: 2) } }
        paginator.refresh()
        answer(server.last, total: 100)
        #expect(paginator.snapshot.value.placeholdersBefore == 50)
        #expect(Array(list.items.value) == [51, 53, 55, 57, 59])
        list.preload(index: 2)
        #expect(server.keys == [50], "row 2 is source row 55, slot 55: far from both edges")
        list.preload(index: 4)
        #expect(server.keys == [50, 60], "row 4 is source row 59, slot 59: near the bottom")
    }
}
