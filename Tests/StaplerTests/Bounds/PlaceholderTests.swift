import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// Records every slot update and checks, like a table view would, that each applies to the slots before
/// it and gives the slots after it.
final class SlotMirror: @unchecked Sendable {
    // Guarded by the paginator's serial delivery.
    var rows: [ListSlot<Int>] = []
    // Guarded by the same serial delivery.
    var changes: [ItemsChange] = []
    // Guarded by the same serial delivery.
    var failures: [String] = []

    init<Query, Failure>(_ paginator: Paginator<Int, Int, Query, Response, Failure>) {
        rows = Array(paginator.slots.value)
        paginator.slotUpdates.observeValues { [self] update in
            changes.append(update.change)
            if Array(update.previous) != rows { failures.append("\(update.change): previous is not the mirror") }
            let new = Array(update.slots)
            rows = Mirror<ListSlot<Int>>.apply(update.change, to: rows, giving: new)
            if rows != new { failures.append("\(update.change) gives \(rows.count) slots, not \(new.count)") }
        }
    }
}

@Suite("Placeholders and jumping")
struct PlaceholderTests {
    static func paginator(
        _ server: TwoEndedServer, pageSize: Int = 10, jumpThreshold: Int? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil
    ) -> Paginator<Int, Int, String, Response, ServerError> {
        Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q",
            options: PagingOptions(
                pageSize: pageSize, deliveringOn: scheduler,
                placeholders: jumpThreshold.map { .jumping(threshold: $0) } ?? .shown))
    }

    @Test("P31: a known total shows every slot; pages fill theirs in place; the total moves only the end")
    func P31_fullLengthList() {
        let server = TwoEndedServer()
        let paginator = Self.paginator(server)
        let mirror = SlotMirror(paginator)
        paginator.refresh()
        answer(server.last, total: 100)
        var slots = paginator.slots.value
        #expect(slots.count == 100)
        #expect(slots[50] == .placeholder(50))
        #expect(slots[9] == .item(9) && slots[10] == .placeholder(10))
        paginator.preload(index: 9)
        answer(server.last, total: 100)
        #expect(mirror.changes.last == .updated(10..<20))
        paginator.preload(index: 19)
        server.last?.succeed(page(20, 10, total: 95))
        #expect(
            mirror.changes.last
                == .difference(ItemsDifference(removals: Array(95..<100), insertions: [], updates: Array(20..<30))))
        #expect(paginator.slots.value.count == 95)
        paginator.preload(index: 99)
        #expect(server.requests.count == 3, "a slot past the total: no trap, no request")
        paginator.preload(index: 29)
        #expect(server.last?.key == 30)
        server.last?.succeed(page(30, 7, total: 95))
        slots = paginator.slots.value
        #expect(slots[36] == .item(36) && slots[37] == .placeholder(37), "a short page leaves its slots empty")
        paginator.preload(index: 36)
        #expect(server.last?.key == 37, "the next key counts what the server sent")
        server.last?.succeed(page(37, 10, total: 120))
        #expect(paginator.slots.value.count == 120)
        #expect(
            mirror.changes.last
                == .difference(ItemsDifference(removals: [], insertions: Array(95..<120), updates: Array(37..<47))))
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P31: without a total, or with placeholders off, the slots are the items")
    func P31_noTotalNoPlaceholders() {
        let server = TwoEndedServer()
        let plain = offsetPaginator(server)
        plain.refresh()
        answer(server.last, total: 100)
        #expect(plain.slots.value.count == 10)
        let cursorPaginator = Paginator<Int, String?, Void, CursorPage, Never>(
            source: .cursor { _, _, _ in SignalProducer(value: CursorPage(items: [1, 2], nextCursor: "n")) },
            options: PagingOptions(pageSize: 2, placeholders: .shown))
        cursorPaginator.refresh()
        #expect(Array(cursorPaginator.slots.value) == [.item(1), .item(2)])
    }

    @Test("P31: an observer reads every slot of each delivered snapshot while totals vary on 4 threads")
    func P31_readsEverySlotWhileTotalsVary() {
        let scheduler = TestScheduler()
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, deliveringOn: scheduler)
        let mismatches = Locked(0)
        paginator.slots.signal.observeValues { slots in
            for index in slots.indices { _ = slots[index] }
            // The slots reach the total of the same snapshot, or the loaded rows if they go past it.
            let total = paginator.total.value ?? 0
            if slots.count != max(total, slots.placeholdersBefore + slots.items.count) { mismatches.increment(by: 1) }
        }
        paginator.refresh()
        answer(server.last, total: 100)
        scheduler.run()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<100 {
                paginator.preload(index: min(paginator.slots.value.count - 1, (thread * 100 + step * 7) % 100))
                for request in server.pending.shuffled() {
                    request.succeed(page(request.key, 10, total: 90 + (step % 21)))
                }
            }
        }
        scheduler.run()
        #expect(mismatches.value == 0)
        let final = paginator.slots.value
        #expect(final.count == final.placeholdersBefore + final.items.count + final.placeholdersAfter)
    }

    @Test("P31: a huge or absurd total never traps: a huge move of the end is a reload, an absurd one no placeholders")
    func P31_hugeTotals() {
        let server = TwoEndedServer()
        let paginator = Self.paginator(server)
        let mirror = SlotMirror(paginator)
        paginator.refresh()
        answer(server.last, total: 100)
        paginator.preload(index: 9)
        // A million slots is a hundred times the most a change lists one by one; the test's mirror copies
        // every slot of each update, so a larger total only makes the test slower.
        server.last?.succeed(page(10, 10, total: 1_000_000))
        #expect(mirror.changes.last == .reloaded, "10 slots filled and 999,900 added: one reload")
        #expect(paginator.slots.value.count == 1_000_000)
        paginator.preload(index: 19)
        server.last?.succeed(page(20, 10, total: Int.max))
        #expect(paginator.slots.value.count == 30, "a total past any list's length shows no placeholders")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P31: a page above the rows with fewer rows than its place (short, empty) reloads the slots")
    func P31_shortPageAboveReloadsTheSlots() {
        // Found by the model-based test (seeds 584 and 110): the rows below such a page move to other
        // slots, and an update of the page's own slots left them in their old slots in a table's copy.
        for rows in [3, 0] {
            let server = TwoEndedServer()
            let paginator = Paginator(
                source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q", initialKey: 10,
                options: PagingOptions(pageSize: 5, placeholders: .shown))
            let mirror = SlotMirror(paginator)
            paginator.refresh()
            answer(server.last, total: 23)
            paginator.preload(index: 10)
            #expect(server.keys == [10, 5])
            server.last?.succeed(page(5, rows, total: 23))
            #expect(mirror.changes.last == .reloaded, "\(rows) rows")
            #expect(mirror.failures.isEmpty, "\(rows) rows: \(mirror.failures)")
            #expect(mirror.rows == Array(paginator.slots.value), "\(rows) rows")
            #expect(paginator.slots.value.count == 23)
        }
    }

    @Test("P31: with a memory bound, dropped pages become placeholders again, in place")
    func P31_dropsLeavePlaceholders() {
        let server = TwoEndedServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q",
            options: PagingOptions(pageSize: 10, prefetchDistance: 5, maxPages: 3, placeholders: .shown))
        let mirror = SlotMirror(paginator)
        paginator.refresh()
        answer(server.last, total: 100)
        for row in [9, 19, 29, 39, 49] {
            paginator.preload(index: row)
            answer(server.last, total: 100)
        }
        let slots = paginator.slots.value
        #expect(slots.count == 100)
        #expect(slots[0] == .placeholder(0) && slots[59] == .item(59) && slots[60] == .placeholder(60))
        #expect(paginator.pages.value == 3)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P32: a preload far into placeholders loads that page directly; a newer jump supersedes it silently")
    func P32_jumps() {
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, pageSize: 20, jumpThreshold: 60)
        let mirror = SlotMirror(paginator)
        let errors = Locked(0)
        paginator.errorsAfterFirstPage.observeValues { _ in errors.increment(by: 1) }
        paginator.refresh()
        answer(server.last, total: 1_000)
        paginator.preload(index: 500)
        #expect(server.keys == [0, 500], "the page of slot 500, not 20, 40, ...")
        let first = server.requests[1]
        paginator.preload(index: 800)
        #expect(first.disposeCount == 1)
        #expect(server.keys == [0, 500, 800])
        answer(first, total: 1_000)
        #expect(paginator.slots.value[500] == .placeholder(500), "a superseded jump never lands")
        answer(server.last, total: 1_000)
        #expect(paginator.slots.value[800] == .item(800))
        #expect(paginator.slots.value[0] == .placeholder(0))
        #expect(
            mirror.changes.last
                == .difference(ItemsDifference(removals: [], insertions: [], updates: Array(0..<20) + Array(800..<820)))
        )
        #expect(errors.value == 0 && paginator.state.value == .data, "no error, no failed state")
        paginator.preload(index: 819)
        #expect(server.last?.key == 820)
        paginator.preload(index: 800)
        #expect(server.last?.key == 780, "neighbours load by normal prefetch")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P32: a cursor source cannot jump: a jump threshold traps, naming jumpThreshold")
    func P32_cursorJumpTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, String?, Void, CursorPage, Never>(
                source: .cursor { _, _, _ in .never },
                options: PagingOptions(pageSize: 10, placeholders: .jumping(threshold: 50)))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("jumpThreshold"))
    }

    @Test("P32: one thread jumps far at random while another answers: one jump in flight, no stale update")
    func P32_racingJumps() {
        let server = TwoEndedServer()
        let paginator = Self.paginator(server, pageSize: 20, jumpThreshold: 60)
        paginator.refresh()
        answer(server.last, total: 1_000)
        let stop = Locked(false)
        let maximumInFlight = Locked(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !stop.value {
                let pending = server.pending
                maximumInFlight.withLock { $0 = max($0, pending.count) }
                pending.randomElement().map { answer($0, total: 1_000) }
            }
            done.signal()
        }
        var generator = SplitMix(seed: 32)
        for _ in 0..<10_000 { paginator.preload(index: Int.random(in: 0..<1_000, using: &generator)) }
        stop.value = true
        done.wait()
        for request in server.pending { answer(request, total: 1_000) }
        #expect(maximumInFlight.value <= 2, "one jump alone, or a load at each edge of the list it gave")
        let slots = paginator.slots.value
        for index in slots.indices {
            if case .item(let value) = slots[index] { #expect(value == index, "slot \(index) holds \(value)") }
        }
    }
}
