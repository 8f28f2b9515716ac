import Reactive
import Stapler
import TestSupport
import Testing

/// Each kind of change the paginator publishes becomes one transformed change that the mirror can
/// apply, and the transformed snapshot is always the transform of the paginator's from scratch.
@Suite("Transformed list: change kinds")
struct TransformedListTests {
    static let steps = TestTransform(steps: [.skipThrees, .decades])

    @Test("9.1: a first page is a reload, later pages are appends of their transformed rows only")
    func pagesAppend() {
        let harness = TransformHarness(Self.steps)
        harness.paginator.refresh()
        answer(harness.server.last, total: 25)
        harness.paginator.loadNextPage()
        answer(harness.server.last, total: 25)
        #expect(harness.rows == harness.expected)
        #expect(
            harness.mirror.changes == [.reloaded, .appended(7..<15)],
            "6 rows and the top separator, then 7 rows and a section")
        harness.paginator.loadNextPage()
        answer(harness.server.last, total: 25)
        #expect(harness.rows.last == .bottom, "the bottom separator once the end is reached")
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
        #expect(harness.mirror.changes.count == 3)
    }

    @Test("9.1: prepended pages are inserted at the top, with the top separator once the start is reached")
    func pagesPrepend() {
        let harness = TransformHarness(Self.steps, initialKey: 20)
        harness.paginator.refresh()
        answer(harness.server.last, total: 40)
        #expect(harness.rows.first == .item(20), "no top separator while pages are above")
        harness.paginator.loadPreviousPage()
        answer(harness.server.last, total: 40)
        harness.paginator.loadPreviousPage()
        answer(harness.server.last, total: 40)
        #expect(harness.rows.first == .section(0))
        #expect(harness.rows == harness.expected)
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }

    @Test("9.1: local edits change only the touched rows and their separators")
    func edits() {
        let harness = TransformHarness(Self.steps)
        harness.paginator.refresh()
        answer(harness.server.last, total: 40)
        harness.paginator.loadNextPage()
        answer(harness.server.last, total: 40)
        _ = harness.paginator.replace(at: 4, with: 104)
        _ = harness.paginator.insert(55, at: 12)
        _ = harness.paginator.remove(at: 0)
        _ = harness.paginator.remove(at: 1)
        _ = harness.paginator.replace(at: 2, with: 3)
        #expect(harness.rows == harness.expected)
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
        #expect(harness.mirror.changes.count == 6, "removing row 0 (a 0, filtered out) changes no transformed row")
    }

    @Test("9.1: a keyed refresh publishes a difference in transformed indices")
    func keyedRefresh() {
        let harness = TransformHarness(Self.steps, deduplication: .by { $0 })
        harness.paginator.refresh()
        answer(harness.server.last, total: 40)
        harness.paginator.loadNextPage()
        answer(harness.server.last, total: 40)
        harness.paginator.refresh()
        harness.server.last?.succeed(Response(items: [1, 2, 7, 4, 5, 14, 22, 23], total: 40))
        #expect(harness.rows == harness.expected)
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
        guard case .difference? = harness.mirror.changes.last else {
            Issue.record("expected a difference, got \(harness.mirror.changes)")
            return
        }
    }

    @Test("9.1: a clear and dropped pages stay consistent")
    func clearsAndDrops() {
        let harness = TransformHarness(Self.steps, pageSize: 5, maxPages: 3)
        harness.paginator.refresh()
        answer(harness.server.last, total: 100)
        for row in stride(from: 0, to: 40, by: 2) {
            harness.paginator.preload(index: min(row, harness.paginator.items.value.count - 1))
            if let request = harness.server.pending.last { answer(request, total: 100) }
        }
        #expect(harness.rows == harness.expected)
        harness.paginator.refresh()
        harness.server.last?.succeed(Response(items: [], total: 0))
        #expect(harness.rows == harness.expected)
        #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures)")
    }
}
