import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// Edits and preloads by index read the index against the snapshot the screen was given, not against a
/// newer list it has not shown.
@Suite("Indices from the screen")
struct ScreenIndexTests {
    /// A list opened at offset 20 whose first page the screen shows ([20, 30)), with a prepended page
    /// ([10, 20)) that landed but is not delivered yet.
    func prependedUndelivered(
        deduplication: Deduplication<Int>? = nil
    ) -> (Paginator<Int, Int, String, Response, ServerError>, TwoEndedServer, TestScheduler) {
        let server = TwoEndedServer()
        let scheduler = TestScheduler()
        let paginator = offsetPaginator(
            server, initialKey: 20, deduplication: deduplication, deliveringOn: scheduler)
        paginator.refresh()
        answer(server.last, total: 100)
        scheduler.run()
        paginator.loadPreviousPage()
        answer(server.last, total: 100)
        return (paginator, server, scheduler)
    }

    @Test("an edit by index hits the row the screen shows, not the row a prepend not yet delivered moved there")
    func editsFollowTheScreen() {
        let (paginator, _, scheduler) = prependedUndelivered()
        #expect(Array(paginator.items.value) == Array(20..<30), "the screen still shows the first page")
        #expect(paginator.insert(-1, at: 0) == .applied, "before row 20, below the prepended rows")
        #expect(paginator.remove(at: 0) == .applied)
        #expect(paginator.replace(at: 1, with: -21) == .applied)
        #expect(paginator.modify(at: 2) { $0 = -$0 } == .applied)
        #expect(paginator.insert(-2, at: 10) == .applied, "at the end: after the last row shown")
        scheduler.run()
        #expect(Array(paginator.items.value) == Array(10..<20) + [-1, -21, -22] + Array(23..<30) + [-2])
    }

    @Test("a row removed or replaced by a refresh since the screen showed it is rowGone; by identity it is found")
    func goneRowsChangeNothing() {
        let (paginator, server, scheduler) = prependedUndelivered()
        #expect(paginator.remove(at: 0) == .applied)
        #expect(paginator.remove(at: 0) == .rowGone, "row 20 is gone already")
        #expect(paginator.replace(at: 0, with: 0) == .rowGone)
        #expect(paginator.insert(0, at: 0) == .rowGone, "the row it went before is gone")
        paginator.refresh()
        answer(server.last, total: 100)
        #expect(paginator.remove(at: 1) == .rowGone, "without an identity, a replaced list's rows are gone")
        scheduler.run()
        #expect(Array(paginator.items.value) == Array(20..<30))

        let (identified, identifiedServer, identifiedScheduler) = prependedUndelivered(deduplication: .by { $0 })
        identified.refresh()
        answer(identifiedServer.last, total: 100)
        #expect(identified.remove(at: 1) == .applied, "with an identity, row 21 is found in the new list")
        identifiedScheduler.run()
        #expect(Array(identified.items.value) == [20] + Array(22..<30))
    }

    @Test("an index past the screen's rows is out of range even when the newest list is longer")
    func outOfRangeAgainstTheScreen() {
        let (paginator, _, scheduler) = prependedUndelivered()
        #expect(paginator.remove(at: 10) == .outOfRange)
        #expect(paginator.insert(0, at: 11) == .outOfRange)
        scheduler.run()
        #expect(paginator.items.value.count == 20)
    }

    @Test("stress: edits made from a queue's deliveries hit the rows delivered, while pages land on other threads")
    func stressEditsFromDeliveries() {
        let server = TwoEndedServer()
        let delivery = QueueScheduler(label: "delivery")
        let paginator = offsetPaginator(server, pageSize: 5, initialKey: 500, deliveringOn: delivery)
        // Every row the screen marked, and every row an edit found where the screen's row 0 was.
        let marked = Locked<[Int]>([])
        let misses = Locked<[String]>([])
        paginator.items.signal.observeValues { [weak paginator] (items: PagedItems<Int>) in
            guard let paginator, let first = items.first, first >= 0 else { return }
            // The screen marks the row it shows at the top, once; prepends land meanwhile on other
            // threads, and the same rows may be delivered again before its own edit is.
            _ = paginator.modify(at: 0) { row in
                if row != first && row != -first - 1 {
                    misses.append("the screen showed \(first), the edit found \(row)")
                }
                if row >= 0 { row = -row - 1 }
            }
            marked.append(first)
        }
        paginator.refresh()
        answer(server.last, total: 1_000)
        let workers = DispatchQueue(label: "answers", attributes: .concurrent)
        for _ in 0..<60 {
            paginator.loadPreviousPage()
            if let request = server.pending.last {
                answer(request, total: 1_000, on: workers)
            }
            workers.sync(flags: .barrier) {}
        }
        let delivered = DispatchSemaphore(value: 0)
        delivery.schedule { delivered.signal() }
        delivered.wait()
        let rows = Array(paginator.items.value)
        #expect(misses.value == [])
        #expect(!marked.value.isEmpty)
        for row in Set(marked.value) {
            #expect(rows.contains(-row - 1) && !rows.contains(row), "row \(row) was marked where it is")
        }
        let identities = rows.map { row -> Int in row < 0 ? -row - 1 : row }
        #expect(identities == Array(identities.min()!...identities.max()!), "no row lost, doubled or moved")
    }
}
