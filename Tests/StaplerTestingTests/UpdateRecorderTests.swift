import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Test kit: update recorder")
struct UpdateRecorderTests {
    @Test("P71: a test double that reports inserted(0..<2) for 3 new rows fails check(), naming the update")
    func wrongInsertionCountFails() throws {
        let (updates, publish) = Signal<RecordedUpdate<Int>, Never>.pipe()
        let recorder = UpdateRecorder(observing: updates, id: { $0 }) { $0 }
        let first = Array(0..<10)
        publish.send(value: RecordedUpdate(previous: [], rows: first, change: .reloaded))
        publish.send(value: RecordedUpdate(previous: first, rows: first + [10, 11], change: .appended(10..<12)))
        publish.send(value: RecordedUpdate(previous: first + [10, 11], rows: first, change: .removed(10..<12)))
        try recorder.check()
        publish.send(value: RecordedUpdate(previous: first, rows: [-3, -2, -1] + first, change: .inserted(0..<2)))
        #expect(recorder.updates.count == 4)
        do throws(UpdateViolation) {
            try recorder.check()
            Issue.record("check() passed an insertion that misses a row")
        } catch {
            #expect(error.index == 3)
            #expect(
                error.description == "update 3: replaying inserted(0..<2) on 10 rows gives 12 rows, the snapshot has 13"
            )
        }
    }

    @Test("P71: a change that names the wrong rows, a gap between updates and a repeated id each fail check()")
    func otherBrokenUpdatesFail() {
        let rows = Array(0..<5)
        let cases: [(RecordedUpdate<Int>, String)] = [
            (
                RecordedUpdate(previous: rows, rows: [0, 1, 9, 3, 4], change: .updated(3..<4)),
                "update 1: replaying updated(3..<4) on 5 rows gives id 2 at row 2, the snapshot has id 9"
            ),
            (
                RecordedUpdate(previous: [7], rows: [7, 8], change: .appended(1..<2)),
                "update 1: its previous snapshot (1 rows) is not the last update's (5 rows)"
            ),
            (
                RecordedUpdate(previous: rows, rows: rows + [4], change: .appended(5..<6)),
                "update 1: id 4 appears twice in the snapshot"
            ),
            (
                RecordedUpdate(previous: rows, rows: [], change: .removed(0..<9)),
                "update 1: removed(0..<9) removes rows 0..<9 of 5 rows"
            ),
        ]
        for (broken, message) in cases {
            let recorder = UpdateRecorder<Int, Int>()
            recorder.record(RecordedUpdate(previous: [], rows: rows, change: .reloaded))
            recorder.record(broken)
            #expect(throws: UpdateViolation(index: 1, description: message)) { try recorder.check() }
        }
    }

    @Test("P71: every update of a paginator paging both ways, editing and refreshing replays to its snapshot")
    func paginatorUpdatesReplay() throws {
        let server = TestPageSource(lists: [Array(0..<40), Array(5..<45)], openAt: 20, delivery: .synchronous)
        let paginator = Paginator(
            source: server.offset(), initialKey: server.initialOffset,
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        let recorder = UpdateRecorder(paginator, id: { $0 })
        paginator.refresh()
        paginator.loadPreviousPage()
        paginator.loadNextPage()
        paginator.insert(100, at: 3)
        paginator.remove(at: 0)
        paginator.refresh(.reloadAll)
        try recorder.check()
        #expect(recorder.updates.count >= 6)
        #expect(recorder.updates.map(\.change).contains(.inserted(0..<10)))
    }

    @Test("P71: the recorder of a transformed list records its transformed updates, which replay")
    func transformedUpdatesReplay() throws {
        let server = TestPageSource(Array(0..<30), delivery: .synchronous)
        let paginator = Paginator(source: server.custom(), pageSize: 10)
        let evens = paginator.transformed(by: ListTransform().filter { $0 % 2 == 0 })
        let recorder = UpdateRecorder(evens, id: { $0 })
        paginator.refresh()
        paginator.loadNextPage()
        try recorder.check()
        #expect(recorder.updates.last?.rows == Array(stride(from: 0, to: 20, by: 2)))
    }

    @Test("P71: stop() removes the one observer, and a released recorder leaves nothing in the paginator")
    func stopLeavesNothingBehind() {
        let server = TestPageSource(Array(0..<30), delivery: .synchronous)
        let paginator = Paginator(source: server.offset(), pageSize: 10)
        let recorder = UpdateRecorder(paginator, id: { $0 })
        paginator.refresh()
        recorder.stop()
        paginator.loadNextPage()
        #expect(recorder.updates.map(\.change) == [.reloaded])

        let tracker = LifetimeTracker()
        let released = isFreed {
            let tracked = tracker.instance()
            // The observer holds what turns a value into a record: it lives as long as the observer does.
            return UpdateRecorder(observing: paginator.updates, id: { $0 }) { update in
                withExtendedLifetime(tracked) {
                    RecordedUpdate(previous: Array(update.previous), rows: Array(update.items), change: update.change)
                }
            }
        }
        paginator.loadNextPage()
        #expect(released)
        #expect(tracker.live == 0, "the paginator's signal keeps nothing of a released recorder")
    }
}
