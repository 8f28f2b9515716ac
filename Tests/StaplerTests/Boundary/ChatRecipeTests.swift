import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

// The chat recipe of the DocC article "A chat on a cursor API", compiled and run: the lines between the
// comment naming the article and the next `end` comment are the article's code.

enum ChatError: Error, Equatable {
    case offline
}

/// An in-memory chat API: messages `0..<count`, newest last; a cursor is the id of a page's first
/// message (`nil`: the newest page).
final class ChatAPI: Sendable {
    private let count = Locked(0)

    init(count: Int) {
        self.count.value = count
    }

    /// Messages arrive on the server.
    func receive(_ new: Int) {
        count.withLock { $0 += new }
    }

    func messages(cursor: Int?, limit: Int) async throws(ChatError) -> ChatMessagesPage {
        let count = count.value
        let start = cursor ?? max(0, count - limit)
        let end = min(start + limit, count)
        return ChatMessagesPage(
            items: (start..<end).map { ChatMessage(id: $0, text: "message \($0)", isSent: true) },
            nextCursor: end < count ? end : nil, previousCursor: start == 0 ? nil : max(0, start - limit))
    }
}

// Stapler.docc/Chat.md
struct ChatMessage: Identifiable, Sendable {
    let id: Int
    var text: String
    var isSent: Bool
}

struct ChatMessagesPage: CursorPageResponse {
    let items: [ChatMessage]  // oldest first
    let nextCursor: Int?  // newer messages; nil at the newest page
    let previousCursor: Int?  // older messages; nil at the first message
}

func makeMessages(api: ChatAPI) -> Paginator<ChatMessage, Int?, Void, ChatMessagesPage, ChatError> {
    Paginator(
        source: .cursor { cursor, size, _ async throws(ChatError) in
            try await api.messages(cursor: cursor, limit: size)  // cursor nil: the newest page
        },
        options: PagingOptions(pageSize: 30, deduplication: .by(\.id)))
}
// Stapler.docc/Chat.md: end

@Suite("The chat recipe")
struct ChatRecipeTests {
    @Test("the recipe: newest page, older on scroll up, live messages, and a catch-up after a reconnect")
    func recipe() async throws {
        let api = ChatAPI(count: 100)
        let messages = makeMessages(api: api)
        #expect(await messages.refresh() == .loaded)
        #expect(messages.items.value.map(\.id) == Array(70..<100))
        #expect(await messages.loadPreviousPage() == .loaded)
        #expect(messages.items.value.map(\.id) == Array(40..<100))

        let live = ChatMessage(id: 100, text: "typed here", isSent: false)
        #expect(messages.insert(contentsOf: [live], at: .bottom) == .applied)
        api.receive(45)
        #expect(synchronously { messages.catchUp(at: .bottom) } == .started)
        try await messages.settled(timeout: .seconds(30))  // the source answers on another task
        #expect(messages.loadStates.value.append == .idle(endReached: true))
        #expect(messages.items.value.map(\.id) == Array(40..<145), "every message once, none missed")
        #expect(messages.items.value.allSatisfy { $0.isSent }, "the server's copy replaced the live row")
    }
}
