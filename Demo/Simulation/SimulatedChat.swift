import Reactive
import Stapler

/// A message of the simulated chat: the item type of the chat scenes.
struct Message: ListItem, Identifiable, Equatable {
    let id: Int
    var text: String
    /// Whether someone changed the text after it was posted.
    var isEdited = false
}

/// One response of the simulated `GET /chat/messages?offset=&limit=`: a page, oldest message first,
/// and the total.
struct MessagesPage: PaginatedResponse {
    let items: [Message]
    let total: Int
}

/// The in-process chat server of the default run's chat scenes: `GET /chat/messages?offset=&limit=`,
/// oldest message first, with seeded latency and seeded failures at `--failure-rate`, plus the edits
/// a chat makes on the server (`DELETE` and `PATCH` of a message, a new message from someone else),
/// which apply at once.
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

    /// The page source of the chat's paginator: the library's offset + total model, whose previous key
    /// (the offset a page up, clamped at 0) pages older messages.
    var source: PageSource<Message, Int, Void, MessagesPage, ServerError> {
        .offset { [self] offset, size, _ in
            messages(offset: offset, limit: size)
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

    /// `POST /chat/messages`: someone else posts a message, the newest; returns its id.
    @discardableResult
    func post(text: String) -> Int {
        let id = state.withLock { state in
            let id = (state.messages.map(\.id).max() ?? 0) + 1
            state.messages.append(Message(id: id, text: text))
            return id
        }
        log.write(.server, "POST", "/chat/messages \"\(text)\": 201 Created, id \(id)")
        return id
    }

    /// One request: it answers after its latency on the simulation's clock, unless disposed first.
    func messages(offset: Int, limit: Int) -> SignalProducer<MessagesPage, ServerError> {
        SignalProducer { [self] observer, lifetime in
            // The paginator calls its source on the thread that asked for the page: in the simulation
            // that is always the main thread, where the simulation runs.
            MainActor.assumeIsolated {
                let path = "/chat/messages?offset=\(offset)&limit=\(limit)"
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
                        return MessagesPage(
                            items: Array(state.messages.dropFirst(offset).prefix(limit)), total: state.messages.count)
                    }
                    log.write(.server, "response", "200 OK \(after): \(page.items.count) of \(page.total) messages")
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
