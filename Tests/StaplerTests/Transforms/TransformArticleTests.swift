import Reactive
import Stapler
import TestSupport
import Testing

// The SwiftUI example of the DocC article "Transforming the list", compiled and run: the lines between the
// comment naming the article and the `end` comment are the article's code (its view is not here: SwiftUI
// is not on Linux). It reuses `Message`, `MessagesPage`, `AsyncMessagesAPI` and `APIError` from
// DocSnippetTests.swift.

/// The article's backend.
typealias MessagesAPI = AsyncMessagesAPI

/// The day a message was sent: ten messages a day here.
struct Day: Hashable, Sendable {
    let number: Int
}

extension Message {
    /// Messages 1-10 are day 0, 11-20 day 1, and so on.
    var day: Day { Day(number: (id - 1) / 10) }
}

/// The article's rows: messages, a header above each day, and a footer.
enum FeedRow: Equatable, Sendable {
    case message(Message)
    case day(Day)
    case loadingMore
    case retry
}

/// The article's transform, over the test's messages.
let feedRows = ListTransform<Message, Message>()
    .map { FeedRow.message($0) }
    .separators { before, after in
        guard case .message(let message)? = after else { return nil }
        if case .message(let previous)? = before, previous.day == message.day { return nil }
        return .day(message.day)
    }
    .footer { edge in
        switch edge.status {
        case .loading: .loadingMore
        case .failed: .retry
        case .idle, .ended: nil
        }
    }

// TransformingTheList.md, "SwiftUI"
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func makeFeed(api: MessagesAPI) -> TransformedModel<FeedRow, APIError> {
    let paginator = Paginator(
        source: .cursor { cursor, size, _ async throws(APIError) in
            try await api.messages(after: cursor, limit: size)
        },
        pageSize: 30)
    return TransformedModel(paginator, transform: feedRows)
}
// TransformingTheList.md: end

@Suite("Transforming the list: the SwiftUI example")
@MainActor
struct TransformArticleTests {
    /// The ids of the messages among `rows`, in order.
    func messages(_ rows: TransformedItems<FeedRow>) -> [Int] {
        rows.compactMap { row in
            if case .message(let message) = row { return message.id }
            return nil
        }
    }

    /// How many day headers `rows` hold.
    func days(_ rows: TransformedItems<FeedRow>) -> Int {
        rows.filter { row in
            if case .day = row { return true }
            return false
        }.count
    }

    @Test("the article's feed model refreshes, pages from the row shown, heads each day and ends with no footer")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func swiftUIFeed() async {
        let feed = makeFeed(api: MessagesAPI(count: 45))
        #expect(feed.items.isEmpty)
        #expect(await feed.refresh() == .loaded)
        #expect(messages(feed.items) == Array(1...30), "the model shows the page when the call returns")
        #expect(days(feed.items) == 3)
        feed.preload(index: feed.items.count - 1)
        await feed.settled()
        #expect(messages(feed.items) == Array(1...45))
        #expect(days(feed.items) == 5)
        #expect(feed.items.last == .message(Message(id: 45, text: "message 45")), "the end: no footer")
        #expect(await feed.retry() == .ignored(.nothingToDo))
        #expect(Array(feed.items) == Array(feed.list.items.value))
    }
}
