import Reactive
import Stapler
import TestSupport
import Testing

/// `.reloadAll` reloads every shown page, from the page the list was opened at, both ways.
@Suite("Reloading every page of a two-ended list")
struct ReloadAllTwoEndedTests {
    @Test("P26: a chat opened at its newest page and paged older reloads every message, not the top page alone")
    func chatBuiltUpward() {
        let server = CursorServer()
        // 97 messages; the newest page (cursor 90) holds 90...96 and has no next cursor. Older pages come
        // with a previous cursor only, as a chat API that pages backwards sends them.
        let paginator = cursorPaginator(server, initialKey: 90)
        paginator.refresh()
        answer(server.last, 90..<97, previous: 80, next: nil)
        for key in stride(from: 80, through: 0, by: -10) {
            paginator.loadPreviousPage()
            answer(server.last, key..<key + 10, previous: key == 0 ? nil : key - 10, next: nil)
        }
        #expect(Array(paginator.items.value) == Array(0..<97))
        paginator.refresh(.reloadAll)
        #expect(server.keys.last == 90, "the reload starts at the page the list was opened at")
        answer(server.last, 90..<97, previous: 80, next: nil)
        for key in stride(from: 80, through: 0, by: -10) {
            #expect(server.keys.last == key)
            #expect(Array(paginator.items.value) == Array(0..<97), "the rows stay until the reload commits")
            answer(server.last, key..<key + 10, previous: key == 0 ? nil : key - 10, next: nil)
        }
        #expect(Array(paginator.items.value) == Array(0..<97))
        #expect(server.keys.suffix(10) == [90, 80, 70, 60, 50, 40, 30, 20, 10, 0])
        #expect(paginator.loadStates.value.refresh == .idle(endReached: false))

        paginator.refresh(.reloadAll)
        #expect(server.keys.last == 90, "a second reload starts at the same page")
    }
}
