import Reactive
import Stapler

/// A message of the simulated chat: the item type of the chat scenes.
struct Message: ListItem, Identifiable, Equatable {
    let id: Int
    var text: String
    /// Whether someone changed the text after it was posted.
    var isEdited = false
    /// Whether the row came from the socket and no page has brought the server's copy yet (a local row).
    var fromSocket = false
}

/// The key of a page of the simulated chat: its newest page (no offset: the server answers its last
/// page, whatever the newest message is now), or an older page by its offset on the grid of pages.
enum ChatPageKey: Hashable, Sendable, CustomStringConvertible {
    case newest
    case offset(Int)

    var description: String {
        switch self {
        case .newest: ".newest"
        case .offset(let offset): "offset \(offset)"
        }
    }
}

/// One response of the simulated `GET /chat/messages?offset=&limit=`: a page, oldest message first,
/// where it starts, and the total.
struct MessagesPage: PaginatedResponse {
    let items: [Message]
    let offset: Int
    let total: Int
}

/// The in-process chat server of the default run's chat scenes: `GET /chat/messages?offset=&limit=`.
///
/// It answers oldest message first, on a grid of pages from the first message, and without `offset`
/// the newest page of that grid. With seeded latency and seeded failures at `--failure-rate`, plus the edits a chat
/// makes on the server (`DELETE` and `PATCH` of a message, a new message from someone else), which
/// apply at once.
///
/// Every response is made when it is due, from the messages as they are then, so a page answered
/// after an edit shows the edit. Like ``SimulatedBackend``, it draws its randomness in the order of the
/// requests, so the same seed plays the same chat.
final class SimulatedChat: Sendable {
    /// What the server saw, for the summary.
    struct Statistics: Sendable {
        var requests = 0
        var answered = 0
        var failed = 0
        var cancelled = 0
    }

    private struct State {
        var messages: [Message]
        var random: SplitMix
        var statistics = Statistics()
    }

    private let simulation: Simulation
    private let log: Log
    private let latency: Duration
    private let failureRate: Double
    // Guarded by its own lock.
    private let state: LockedState<State>

    /// Creates a chat of `count` messages, ids 1...count, oldest first.
    init(count: Int, simulation: Simulation, log: Log, latency: Duration, failureRate: Double, random: SplitMix) {
        self.simulation = simulation
        self.log = log
        self.latency = latency
        self.failureRate = failureRate
        let messages = (0..<count).map { Message(id: $0 + 1, text: "message \($0 + 1)") }
        state = LockedState(State(messages: messages, random: random))
    }

    /// The page source of the chat's paginator: the newest page first (``ChatPageKey/newest``), which
    /// has no next key, so the bottom ends; each page's previous key is the offset a page up.
    var source: PageSource<Message, ChatPageKey, Void, MessagesPage, ServerError> {
        PageSource(firstKey: .newest) { [self] request in
            messages(key: request.key, limit: request.pageSize).map { response in
                let next = response.offset + response.items.count
                return Page(
                    items: response.items,
                    previousKey: response.offset > 0 ? .offset(max(0, response.offset - request.pageSize)) : nil,
                    nextKey: request.key == .newest || next >= response.total ? nil : .offset(next),
                    total: response.total, metadata: response)
            }
        }
    }

    /// The ids of the messages on the server now, oldest first.
    var ids: [Int] {
        state.withLock { $0.messages.map(\.id) }
    }

    /// How many messages the server holds now.
    var count: Int {
        state.withLock { $0.messages.count }
    }

    /// What the server saw so far.
    var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// `DELETE /chat/messages/{id}`: the message is gone from every later response.
    func delete(id: Int) {
        let found = state.withLock { state in
            guard let index = state.messages.firstIndex(where: { $0.id == id }) else { return false }
            state.messages.remove(at: index)
            return true
        }
        log.write(.server, "DELETE", "/chat/messages/\(id): " + (found ? "204 No Content" : "404 Not Found"))
    }

    /// `PATCH /chat/messages/{id}` with a new text.
    func edit(id: Int, text: String) {
        let found = state.withLock { state in
            guard let index = state.messages.firstIndex(where: { $0.id == id }) else { return false }
            state.messages[index].text = text
            state.messages[index].isEdited = true
            return true
        }
        log.write(.server, "PATCH", "/chat/messages/\(id) \"\(text)\": " + (found ? "200 OK" : "404 Not Found"))
    }

    /// `POST /chat/messages`: someone else posts a message, the newest; returns it.
    @discardableResult
    func post(text: String) -> Message {
        let message = state.withLock { state in
            let message = Message(id: (state.messages.map(\.id).max() ?? 0) + 1, text: text)
            state.messages.append(message)
            return message
        }
        log.write(.server, "POST", "/chat/messages \"\(text)\": 201 Created, id \(message.id)")
        return message
    }

    /// One request: it answers after its latency on the simulation's clock, unless disposed first.
    func messages(key: ChatPageKey, limit: Int) -> SignalProducer<MessagesPage, ServerError> {
        SignalProducer { [self] observer, lifetime in
            // The paginator calls its source on the thread that asked for the page: in the simulation
            // that is always the main thread, where the simulation runs.
            MainActor.assumeIsolated {
                let path =
                    switch key {
                    case .newest: "/chat/messages?limit=\(limit)"
                    case .offset(let offset): "/chat/messages?offset=\(offset)&limit=\(limit)"
                    }
                let (delay, fails) = draw()
                log.write(.server, "request", "GET \(path)")
                let ticket = simulation.schedule(after: delay) { [self] in
                    let after = "after \(Log.milliseconds(delay))"
                    if fails {
                        let error = ServerError(status: 500, reason: "Internal Server Error")
                        state.withLock { $0.statistics.failed += 1 }
                        log.write(.server, "response", "\(error) \(after) (random failure)")
                        observer.send(error: error)
                        return
                    }
                    let page = state.withLock { state in
                        state.statistics.answered += 1
                        let total = state.messages.count
                        // The newest page of the grid: the last offset that is a multiple of the limit.
                        let offset =
                            switch key {
                            case .newest: total > 0 ? (total - 1) / max(1, limit) * max(1, limit) : 0
                            case .offset(let offset): offset
                            }
                        return MessagesPage(
                            items: Array(state.messages.dropFirst(offset).prefix(limit)), offset: offset, total: total)
                    }
                    let newest = key == .newest ? " (the newest page, offset \(page.offset))" : ""
                    log.write(
                        .server, "response", "200 OK \(after): \(page.items.count) of \(page.total) messages\(newest)")
                    observer.send(value: page)
                    observer.sendCompleted()
                }
                lifetime.observeEnded { [self] in
                    MainActor.assumeIsolated {
                        guard simulation.cancel(ticket) else { return }
                        state.withLock { $0.statistics.cancelled += 1 }
                        log.write(.server, "cancelled", "GET \(path): the paginator disposed the request")
                    }
                }
            }
        }
    }

    /// Draws the latency and the failure of a request.
    private func draw() -> (latency: Duration, fails: Bool) {
        state.withLock { state in
            state.statistics.requests += 1
            let factor = 0.5 + state.random.nextUnit()
            let fails = state.random.nextUnit() < failureRate
            return (latency * factor, fails)
        }
    }
}
