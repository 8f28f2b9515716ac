import Reactive
import Stapler
import TestSupport
import Testing

/// A saved list's `lastShownRow` is the row last passed to `preload(index:)`, wherever it is.
@Suite("The row last shown")
struct LastShownRowTests {
    @Test("a scroll back to row 12 of 40 saves 12, not the last row near an end")
    func scrollBack() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        paginator.refresh()
        answer(server.last, total: 100)
        for row in 0..<40 {
            paginator.preload(index: row)
            if let request = server.pending.last { answer(request, total: 100) }
        }
        #expect(paginator.items.value.count >= 40)
        for row in stride(from: 39, through: 12, by: -1) { paginator.preload(index: row) }
        #expect(paginator.savedState?.lastShownRow == 12)
    }

    @Test("a list that never came near an end saves the row shown, not nil")
    func neverNearAnEnd() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, pageSize: 40, prefetchDistance: 3)
        paginator.refresh()
        answer(server.last, total: 100)
        paginator.preload(index: 5)
        paginator.preload(index: 17)
        #expect(paginator.savedState?.lastShownRow == 17)
    }

    @Test("rows prepended after the row was shown move it down")
    func prependsMoveIt() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 20)
        paginator.refresh()
        answer(server.last, total: 100)
        paginator.preload(index: 4)
        #expect(server.keys.suffix(2) == [10, 30], "row 4 of 10 is near both ends")
        answer(server.pending.first { $0.key == 10 }, total: 100)
        #expect(Array(paginator.items.value) == Array(10..<30))
        #expect(paginator.savedState?.lastShownRow == 14)
    }
}
