import Observation
import Reactive
import Stapler
import TestSupport
import Testing

// The code README.md shows after its first quick-start block (the SwiftUI model, "Edits by id", "Refresh
// modes", "A chat") and the `async` examples of the DocC articles "Getting started" and "Page models",
// compiled and run, so the documents show code that works.
// It reuses `User`, `UsersPage` and `APIError` from the README's quick start. Keep them in step: the lines
// between a comment naming a document and the next `end` comment are that document's code (the documents
// align their trailing comments). The README's SwiftUI view is not here: SwiftUI is not on Linux.

/// The README's backend with `async` calls: the users of a list of `count`, at once.
final class AsyncUsersAPI: Sendable {
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func users(offset: Int, limit: Int) async throws(APIError) -> UsersPage {
        guard offset >= 0 else { throw .unavailable }
        let ids = offset..<min(offset + limit, count)
        return UsersPage(items: ids.map(User.init), total: count)
    }
}

// README.md, quick start, the SwiftUI model (an app that targets macOS 14 / iOS 17 needs no `@available`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
typealias UsersModel = OffsetPagingModel<UsersPage, Void, APIError>

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func makeUsersModel(api: AsyncUsersAPI) -> UsersModel {
    let paginator = Paginator(
        source: .offset { offset, size, _ async throws(APIError) in
            try await api.users(offset: offset, limit: size)  // a UsersPage
        },
        pageSize: 20)
    return UsersModel(paginator)
}
// README.md: end

/// A chat message: the README's edits by id need `Identifiable` items.
struct Message: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
}

/// One page of a chat's messages and the number of messages on the server.
struct ChatPage: PaginatedResponse {
    let items: [Message]
    let total: Int
}

/// An in-memory chat of `count` messages, `GET /messages?offset=&limit=`, answering at once.
func chatPage(offset: Int, limit: Int, count: Int) -> SignalProducer<ChatPage, APIError> {
    let ids = (offset + 1)..<(min(offset + limit, count) + 1)
    return SignalProducer(value: ChatPage(items: ids.map { Message(id: $0, text: "message \($0)") }, total: count))
}

/// The "Page models" article's cursor page.
struct MessagesPage: CursorPageResponse {
    let items: [Message]
    let nextCursor: String?
}

/// A chat of `count` messages behind `async` calls, paged by cursor: a cursor is the id of the last
/// message of the page before, and the last page has none.
final class AsyncMessagesAPI: Sendable {
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    func messages(after cursor: String?, limit: Int) async throws(APIError) -> MessagesPage {
        guard let start = cursor.map({ Int($0) }) ?? 0 else { throw .unavailable }
        let ids = (start + 1)..<(min(start + limit, count) + 1)
        let nextCursor = ids.upperBound <= count ? ids.last.map(String.init) : nil
        return MessagesPage(items: ids.map { Message(id: $0, text: "message \($0)") }, nextCursor: nextCursor)
    }
}

@Suite("Documentation snippets")
struct DocSnippetTests {
    @Test("the README's SwiftUI model pages the async backend to its end")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    func readmePagingModel() async {
        let model = makeUsersModel(api: AsyncUsersAPI(count: 45))
        #expect(await model.refresh() == .loaded)
        #expect(await model.loadNextPage() == .loaded)
        #expect(await model.loadNextPage() == .loaded)
        #expect(await model.loadNextPage() == .ignored(.endReached))
        #expect(model.paginator.items.value.map(\.id) == Array(0..<45))
    }

    @Test("the README's chat opens at its newest page, pages older messages at the top, edits by id and refreshes")
    func readmeChatEditsAndRefreshModes() {
        let server = Locked(45)
        let messages = Paginator(
            source: .offset { offset, size, _ in chatPage(offset: offset, limit: size, count: server.value) },
            options: PagingOptions(pageSize: 10, deduplication: .byID))
        let newestPageOffset = 40
        var ids: [Int] { messages.items.value.map(\.id) }
        let live = Message(id: 46, text: "a live message")

        // README.md, "A chat"
        messages.refresh(.open(at: newestPageOffset))  // or Paginator(..., initialKey: newestPageOffset)
        messages.loadPreviousPage()  // from the top row: older messages, inserted above
        messages.insert(contentsOf: [live], at: .bottom)  // a live message: no index to race with deliveries
        server.value = 47
        messages.catchUp(at: .bottom)  // after a reconnect: what was missed, merged by id
        // README.md: end
        #expect(ids == Array(31...47))
        messages.remove(id: 46)
        messages.remove(id: 47)
        #expect(ids == Array(31...45))

        let deleted = Message(id: 44, text: "message 44")
        let edited = Message(id: 45, text: "message 45")
        let updated = Message(id: 31, text: "message 31, updated")
        let sent = Message(id: 48, text: "a new message")
        let newText = "message 45, edited"
        // README.md, "Edits by id"
        messages.remove(id: deleted.id)  // EditOutcome.applied, or .notFound
        messages.modify(id: edited.id) { $0.text = newText }
        messages.replace(id: updated.id, with: updated)
        messages.insert(contentsOf: [sent], at: .bottom)  // also remove(at:), replace(at:with:), modify(at:_:)
        // README.md: end
        #expect(ids == Array(31...43) + [45, 48])
        #expect(messages.items.value.first == updated)
        #expect(messages.items.value.last(where: { $0.id == 45 })?.text == newText)
        #expect(messages.remove(id: deleted.id) == .notFound)

        server.value = 45
        let firstVisibleRow = 3
        // README.md, "Refresh modes"
        messages.refresh()  // the first page again (or the page the list opened at)
        messages.refresh(.reloadAll)  // every loaded page, then the list changes once
        messages.refresh(.around(index: firstVisibleRow))  // the rows around the one on screen
        messages.refresh(.open(at: newestPageOffset))  // open the list at any key
        // README.md: end
        #expect(ids == Array(41...45))
    }

    @Test("Getting started: an async page closure; awaited calls wait, synchronous ones start and return")
    func gettingStartedAsync() async {
        let api = AsyncUsersAPI(count: 45)
        var shown: [String] = []
        func showEndOfList() { shown.append("end of list") }
        func show(_ error: PagingError<APIError>) { shown.append("error") }

        // GettingStarted.md, "Pages from async functions"
        let users = Paginator(
            source: .offset { offset, size, _ async throws(APIError) in
                try await api.users(offset: offset, limit: size)
            },
            pageSize: 20)
        // GettingStarted.md: end
        let paginator = users
        #expect(await paginator.refresh() == .loaded)
        for _ in 0..<3 {
            // GettingStarted.md, "Waiting for a load, or not"
            switch await paginator.loadNextPage() {
            case .loaded: break  // the page is in the list
            case .ignored(.endReached): showEndOfList()  // nothing started: the last page is loaded
            case .failed(let error): show(error)  // rows kept; `retry()` asks for the same page
            case .superseded, .cancelled, .ignored, .started: break
            }
            // GettingStarted.md: end
        }
        #expect(paginator.items.value.count == 45)
        #expect(shown == ["end of list"])

        // GettingStarted.md, "Waiting for a load, or not"
        func pulledToRefresh() { paginator.refresh() }  // synchronous: starts the refresh and returns
        let startRefresh = { paginator.refresh() }  // a closure with no `await` is synchronous too
        Task { await paginator.refresh() }  // waits in a task of its own
        // GettingStarted.md: end
        pulledToRefresh()
        #expect(startRefresh() == .started)
        var outcome = await paginator.refresh()
        while outcome == .superseded { outcome = await paginator.refresh() }  // by the task's, if it ran late
        #expect(outcome == .loaded)
        #expect(paginator.items.value.map(\.id) == Array(0..<20))
    }

    @Test("Page models: an async cursor closure with a typed error pages to the end")
    func pageModelsAsyncCursor() async {
        let api = AsyncMessagesAPI(count: 120)
        // PageModels.md, "Async page closures"
        let messages = Paginator(
            source: .cursor { cursor, size, _ async throws(APIError) in
                try await api.messages(after: cursor, limit: size)
            },
            pageSize: 50)
        // PageModels.md: end
        #expect(await messages.refresh() == .loaded)
        #expect(await messages.loadNextPage() == .loaded)
        #expect(await messages.loadNextPage() == .loaded)
        #expect(await messages.loadNextPage() == .ignored(.endReached))
        #expect(messages.items.value.map(\.id) == Array(1...120))
    }
}
