import Reactive
import Stapler
import TestSupport
import Testing

/// What a list with placeholders does with input it cannot use: a server's negative total or negative
/// count of items before a page, and a jump to a slot the list does not have.
@Suite("Placeholders and jumping: bad input")
struct PlaceholderBadInputTests {
    @Test("P32: a jump target past the total, or before the first slot, requests nothing and loses nothing")
    func P32_jumpPastTheTotal() {
        let server = TwoEndedServer()
        let paginator = PlaceholderTests.paginator(server, jumpThreshold: 10)
        let mirror = SlotMirror(paginator)
        paginator.refresh()
        answer(server.last, total: 100)
        let before = Array(paginator.slots.value)
        for slot in [100, 101, 5_000, Int.max, -1, -5_000, Int.min] {
            paginator.preload(index: slot)
        }
        #expect(server.keys == [0], "no jump, no page loaded for a slot the list does not have")
        #expect(Array(paginator.slots.value) == before)
        #expect(paginator.state.value == .data && paginator.loadStates.value.refresh == .idle(endReached: false))
        paginator.preload(index: 99)
        #expect(server.keys == [0, 90], "the last slot is one the list has: it jumps")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P31: a negative total from a server is invalidTotal: the rows and the slots stay")
    func P31_negativeTotalKeepsTheSlots() {
        let server = TwoEndedServer()
        let paginator = PlaceholderTests.paginator(server)
        let mirror = SlotMirror(paginator)
        paginator.refresh()
        answer(server.last, total: 100)
        let before = Array(paginator.slots.value)
        paginator.preload(index: 9)
        server.last?.succeed(page(10, 10, total: -5))
        #expect(paginator.loadStates.value.append == .failed(.invalidTotal(-5)))
        #expect(Array(paginator.slots.value) == before, "nothing loaded is lost, no slot moves")
        #expect(paginator.total.value == 100)
        paginator.retry()
        answer(server.last, total: 100)
        #expect(Array(paginator.items.value) == Array(0..<20), "the retried page lands in its slots")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P31: a negative count of items before a page shows no placeholders, never a negative count")
    func P31_negativeItemsBefore() {
        let paginator = Paginator<Int, Int, Void, Void, ServerError>(
            source: PageSource(firstKey: 0) { request in
                var page = Page<Int, Int, Void>(
                    items: Array(request.key..<request.key + 10), nextKey: request.key + 10, total: 100)
                page.itemsBefore = -20
                return SignalProducer(value: page)
            },
            options: PagingOptions(pageSize: 10, placeholders: .shown))
        paginator.refresh()
        let slots = paginator.slots.value
        #expect(slots.placeholdersBefore == 0 && slots.placeholdersAfter == 0)
        #expect(slots.count == 10 && Array(slots.items) == Array(0..<10), "the rows alone, as with no position")
        paginator.preload(index: 9)
        #expect(Array(paginator.items.value) == Array(0..<20), "paging goes on")
    }
}
