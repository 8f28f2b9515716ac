import Reactive
import Stapler
import TestSupport
import Testing

/// A chat on a cursor API: opened at its newest page, older pages on scroll up, live messages added at
/// the bottom, and a catch-up of the ended bottom edge after a reconnect.
@Suite("A chat: live rows and catch-up")
struct ChatTests {
    struct Message: Sendable, Equatable, CustomStringConvertible {
        let id: Int
        let sent: Bool

        var description: String { sent ? "\(id)" : "\(id)?" }
    }

    typealias Server = ManualServer<Int, Page<Message, Int, Void>, ServerError>
    /// The key of the newest page, whatever the newest message is now.
    static let newest = -1

    /// A chat over `server`, deduplicating messages by id, opened at its newest page.
    func makeChat(_ server: Server) -> Paginator<Message, Int, Void, Void, ServerError> {
        Paginator(
            source: PageSource(firstKey: Self.newest) { request in server.producer(request.key) },
            options: PagingOptions(pageSize: 10, deduplication: .by(\.id)))
    }

    /// Answers `request` from a server holding messages `0..<count`: the key is the first message of the
    /// page (``newest`` for the last ten), the previous key the page before, and no next key at the newest.
    func answer(_ request: Server.Request?, count: Int) {
        guard let request else {
            Issue.record("no request to answer")
            return
        }
        let start = request.key == Self.newest ? max(0, count - 10) : request.key
        let end = min(start + 10, count)
        let items = (start..<end).map { Message(id: $0, sent: true) }
        request.succeed(
            Page(items: items, previousKey: start == 0 ? nil : max(0, start - 10), nextKey: end < count ? end : nil))
    }

    func ids(_ paginator: Paginator<Message, Int, Void, Void, ServerError>) -> [Int] {
        paginator.items.value.map(\.id)
    }

    /// A chat showing messages 80...96 of 97, its bottom ended.
    func openChat(_ server: Server) -> Paginator<Message, Int, Void, Void, ServerError> {
        let chat = makeChat(server)
        chat.refresh()
        answer(server.last, count: 97)
        chat.loadPreviousPage()
        answer(server.last, count: 97)
        return chat
    }

    @Test("a live message goes at the bottom as a local row, and the server's copy replaces it in place")
    func liveMessagesAndCatchUp() {
        let server = Server()
        let chat = openChat(server)
        let mirror = Mirror(chat)
        #expect(ids(chat) == Array(77..<97))
        #expect(chat.loadNextPage() == .ignored(.endReached))
        #expect(chat.insert(contentsOf: [Message(id: 97, sent: false)], at: .bottom) == .applied)
        #expect(chat.insert(contentsOf: [Message(id: 98, sent: false)], at: .bottom) == .applied)
        #expect(chat.insert(contentsOf: [Message(id: 97, sent: false)], at: .bottom) == .alreadyShown)
        #expect(ids(chat) == Array(77..<99))
        let updates = Locked<[ItemsUpdate<Message, Void>]>([])
        chat.updates.observeValues { updates.append($0) }

        #expect(chat.catchUp(at: .bottom) == .started)
        #expect(server.keys.last == Self.newest, "the bottom page is asked again by its stored key")
        #expect(chat.loadStates.value.append == .loading)
        answer(server.last, count: 100)
        #expect(ids(chat) == Array(77..<100), "99 arrives, 97 and 98 are not shown twice")
        #expect(chat.items.value.allSatisfy { $0.sent }, "the server's copies replaced the local rows in place")
        #expect(chat.loadStates.value.append == .idle(endReached: true))
        #expect(updates.value.count == 1, "one update")
        if case .difference(let difference)? = updates.value.first?.change {
            #expect(difference.insertions == [22])
            #expect(difference.updates.sorted() == [20, 21])
        } else {
            Issue.record("expected a keyed difference, got \(String(describing: updates.value.first?.change))")
        }
        #expect(mirror.failures.isEmpty, "every update applies to the rows before it")
        #expect(mirror.rows == Array(chat.items.value))
    }

    @Test("a local row survives a catch-up that does not return it, and stays at its end")
    func localRowsStay() {
        let server = Server()
        let chat = openChat(server)
        chat.insert(contentsOf: [Message(id: 500, sent: false)], at: .bottom)
        chat.catchUp(at: .bottom)
        answer(server.last, count: 98)
        #expect(ids(chat) == Array(77..<98) + [500])
    }

    @Test("a gap of several missed pages is followed on toward the rows shown, then merged")
    func catchUpFollowsOn() {
        let server = Server()
        let chat = openChat(server)
        let mirror = Mirror(chat)
        chat.catchUp(at: .bottom, maxPages: 4)
        for _ in 0..<4 { answer(server.last, count: 127) }
        #expect(server.keys.suffix(4) == [Self.newest, 107, 97, 87])
        #expect(ids(chat) == Array(77..<127))
        #expect(mirror.failures.isEmpty && mirror.rows == Array(chat.items.value))
    }

    @Test("a gap wider than the pages allowed replaces the rows, so no gap hides between them")
    func catchUpReplaces() {
        let server = Server()
        let chat = openChat(server)
        chat.catchUp(at: .bottom, maxPages: 2)
        for _ in 0..<2 { answer(server.last, count: 127) }
        #expect(ids(chat) == Array(107..<127), "not 77...96 above 107...126, which would hide 97...106")
        chat.loadPreviousPage()
        #expect(server.keys.last == 97, "scrolling up reloads what was missed")
    }

    @Test("a catch-up waits for a list, for a refresh and for the edge's own load; a failure is retried")
    func catchUpRules() {
        let server = Server()
        let chat = makeChat(server)
        #expect(chat.catchUp() == .ignored(.notLoaded))
        chat.refresh()
        #expect(chat.catchUp() == .ignored(.refreshing))
        answer(server.last, count: 97)
        #expect(chat.catchUp() == .started)
        #expect(chat.catchUp() == .ignored(.alreadyLoading))
        server.last?.fail(.unavailable)
        #expect(chat.loadStates.value.append == .failed(.source(.unavailable)))
        #expect(chat.retry() == .started)
        #expect(server.keys.last == Self.newest)
        answer(server.last, count: 99)
        #expect(ids(chat) == Array(87..<99))
    }

    @Test("catchUp without a deduplication traps, naming deduplication")
    func catchUpWithoutIdentityTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
            let paginator = Paginator(
                source: PageSource(firstKey: 0) { request in server.producer(request.key) }, pageSize: 10)
            paginator.catchUp()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("deduplication"))
    }

    @Test("catchUp with maxPages below 1 traps, naming maxPages")
    func catchUpMaxPagesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
            let paginator = Paginator(
                source: PageSource(firstKey: 0) { request in server.producer(request.key) },
                options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
            paginator.catchUp(maxPages: 0)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("maxPages"))
    }
}
