import Reactive
import Stapler

/// The user of the chat scenes, after the shop: a chat that opens at its newest message and pages
/// older ones at the top, a message deleted and one edited while a page loads, a pull to refresh
/// that reloads every loaded page, live messages from the socket, and a catch-up after the connection
/// drops and returns.
///
/// Like ``ScriptedSession``, the user acts on ticks of the simulation's clock, reads the paginator as
/// a screen would, and calls its API as a chat screen does: `refresh()` (the source's first key is the
/// newest page), `loadPreviousPage()` for its "Load earlier messages" button and
/// `preload(index: 0)` for the top row as it appears,
/// `remove(id:)` and `modify(id:_:)`, `retry()`, `refresh(.reloadAll)`, `preload(index:)` at the
/// bottom when new messages wait there, `insert(contentsOf:at: .bottom)` for each message the socket
/// pushes, and `catchUp(at: .bottom)` when the socket returns.
@MainActor
final class ChatSession {
    typealias ChatPaginator = Paginator<Message, ChatPageKey, Void, MessagesPage, ServerError>

    private enum Act {
        case scrollingUp
        case reloading
        case scrollingDown
        /// Live messages arrive from the socket, then it drops and returns (scheduled events, no ticks).
        case live
        case catchingUp
        case finished
        case gaveUp
    }

    /// How the chat went, for the summary.
    struct Outcome {
        var retries = 0
        var gaveUp = false
        /// The edits made, with their outcomes.
        var edits: [String] = []
        /// Whether the edits were made while a page loaded at the top.
        var editedWhileLoading = false
        var reloads = 0
        /// What `insert(contentsOf:at: .bottom)` returned for each message the socket pushed, by id.
        var liveRows: [(id: Int, outcome: EditOutcome)] = []
        /// What `catchUp(at: .bottom)` returned after the reconnect, if it was called.
        var catchUp: String?
    }

    private let paginator: ChatPaginator
    private let chat: SimulatedChat
    private let socket: ChatSocket
    private let simulation: Simulation
    private let log: Log
    private let checker: InvariantChecker<Message, Void, ServerError>
    private let maximumRetries: Int
    private let liveMessages: Int
    private let missedMessages: Int
    private let catchUpPages = 3

    private let tick: Duration = .milliseconds(300)
    /// Between two live messages, and from the last one to the drop.
    private let liveInterval: Duration = .milliseconds(150)
    /// How long the connection stays down.
    private let offline: Duration = .milliseconds(200)
    private var act = Act.scrollingUp
    private var failuresInARow = 0
    private var scrolledUp = false
    private var edited = false
    private var scrolledUpAfterCatchUp = false
    private(set) var outcome = Outcome()

    /// Creates the user of `paginator`, which pages `chat` from its newest page.
    ///
    /// New messages come on `socket`: `liveMessages` arrive live, then `missedMessages` while the socket
    /// is down. After `maximumRetries` failed retries in a row the user gives up.
    init(
        paginator: ChatPaginator, chat: SimulatedChat, socket: ChatSocket, simulation: Simulation, log: Log,
        checker: InvariantChecker<Message, Void, ServerError>, maximumRetries: Int, liveMessages: Int,
        missedMessages: Int
    ) {
        self.paginator = paginator
        self.chat = chat
        self.socket = socket
        self.simulation = simulation
        self.log = log
        self.checker = checker
        self.maximumRetries = maximumRetries
        self.liveMessages = liveMessages
        self.missedMessages = missedMessages
    }

    /// Schedules the first action; `Simulation.run()` plays the rest.
    func start() {
        simulation.schedule(after: .zero) { [self] in
            log.chapter("A chat opens at its newest message (first key .newest: no offset, the server's last page)")
            log.write(.user, "refresh()", "opens the chat of \(chat.count) messages at its newest page")
            checker.willRefresh()
            paginator.refresh()
            scheduleTick()
        }
    }

    private func scheduleTick() {
        simulation.schedule(after: tick) { [self] in step() }
    }

    /// One look at the screen, and at most one action.
    private func step() {
        let snapshot = paginator.snapshot.value
        if let error = snapshot.state.error {
            guard failuresInARow < maximumRetries else {
                log.write(.user, "gives up", "the page still fails after \(maximumRetries) retries: \(error)")
                act = .gaveUp
                outcome.gaveUp = true
                return
            }
            failuresInARow += 1
            outcome.retries += 1
            log.write(.user, "retry()", "taps Retry (\(failuresInARow) of at most \(maximumRetries))")
            paginator.retry()
            return scheduleTick()
        }
        if !snapshot.state.isLoading { failuresInARow = 0 }

        switch act {
        case .scrollingUp:
            scrollUp(snapshot)
        case .reloading:
            // The reload commits once, when its last page is in; until then the old rows stay.
            if case .data = snapshot.state { act = .scrollingDown }
            if case .noData = snapshot.state { act = .scrollingDown }
        case .scrollingDown:
            if snapshot.isEndReached || snapshot.items.isEmpty {
                guard !snapshot.state.isLoading else { break }
                log.chapter("The chat is up to date")
                log.write(
                    .user, "done",
                    "sees \(snapshot.items.count) messages, from the first to the newest: "
                        + "\(snapshot.items.idSummary)")
                guard !snapshot.items.isEmpty, liveMessages > 0 else {
                    act = .finished
                    return
                }
                act = .live
                goLive()
                return
            }
            if case .data = snapshot.state {
                let last = snapshot.items.count - 1
                log.write(.user, "preload(index:)", "sees row \(last), the newest loaded: newer messages wait below")
                paginator.preload(index: last)
            }
        case .catchingUp:
            guard !snapshot.state.isLoading else { break }
            if !snapshot.loadStates.prepend.isEndReached {
                // More was missed than the catch-up's pages reach: it replaced the rows (no gap hides);
                // scrolling up loads the rest.
                if !scrolledUpAfterCatchUp {
                    scrolledUpAfterCatchUp = true
                    log.chapter(
                        "More was missed than \(catchUpPages) pages: the rows were replaced, scrolling up loads the rest"
                    )
                }
                log.write(
                    .user, "preload(index:)", "sees row 0 of \(snapshot.items.count), message \(snapshot.items[0].id)")
                paginator.preload(index: 0)
                break
            }
            let local = snapshot.items.filter(\.fromSocket).map(\.id)
            log.chapter("The chat caught up")
            log.write(
                .user, "done",
                "sees \(snapshot.items.count) messages: \(snapshot.items.idSummary); "
                    + (local.isEmpty
                        ? "no local row left, the server's copies replaced them in place"
                        : "local rows left: \(local)"))
            act = .finished
            return
        case .live, .finished, .gaveUp:
            return
        }
        scheduleTick()
    }

    /// The socket connects and pushes `liveMessages` messages, each added at the bottom as a local row;
    /// then the connection drops.
    private func goLive() {
        log.chapter("Live messages: the socket pushes each one, added at the bottom as a local row")
        socket.open { [self] message in receive(message) }
        for index in 0..<liveMessages {
            simulation.schedule(after: liveInterval * (index + 1)) { [self] in
                socket.post(text: "live message \(index + 1) from Bob")
            }
        }
        simulation.schedule(after: liveInterval * (liveMessages + 1)) { [self] in goOffline() }
    }

    /// A message the socket pushed: `insert(contentsOf:at: .bottom)`, with no index to race with a page.
    private func receive(_ message: Message) {
        var row = message
        row.fromSocket = true
        log.write(
            .user, "insert(contentsOf:at:)", "adds message \(message.id) at .bottom, a local row until a page brings it"
        )
        let result = paginator.insert(contentsOf: [row], at: .bottom)
        log.write(.demo, "EditOutcome", "\(result)")
        outcome.liveRows.append((message.id, result))
    }

    /// The connection drops; the server gets `missedMessages` messages the screen does not hear of.
    private func goOffline() {
        log.chapter("The connection drops: \(missedMessages) messages reach the server only, more than a page")
        socket.drop()
        for index in 0..<missedMessages {
            socket.post(text: "message \(index + 1) sent while the chat was offline")
        }
        simulation.schedule(after: offline) { [self] in reconnect() }
    }

    /// The connection returns: `catchUp(at: .bottom)` asks the newest page again and merges it.
    private func reconnect() {
        log.chapter("The connection returns: catchUp(at: .bottom) asks the newest page again, merged by id")
        socket.open { [self] message in receive(message) }
        log.write(
            .user, "catchUp(at:maxPages:)",
            "the socket is back: asks the bottom page again by its key, at most \(catchUpPages) pages toward the rows")
        let result = paginator.catchUp(at: .bottom, maxPages: catchUpPages)
        log.write(.demo, "LoadOutcome", "\(result)")
        outcome.catchUp = "\(result)"
        guard case .started = result else {
            act = .finished
            return
        }
        act = .catchingUp
        scheduleTick()
    }

    /// Shows the top row while older messages are left, editing once while the page above loads;
    /// at the top, pulls to refresh.
    private func scrollUp(_ snapshot: ChatPaginator.Snapshot) {
        switch snapshot.state {
        case .data: break
        case .noData:
            log.write(.user, "sees", "an empty chat: nothing to scroll, edit or reload")
            act = .scrollingDown
            return
        default: return
        }
        if !snapshot.loadStates.prepend.isEndReached {
            if !scrolledUp {
                // The first time, the chat's "Load earlier messages" button; then the top row as it appears.
                scrolledUp = true
                log.chapter("The user scrolls up: older messages load at the top, inserted above the rows")
                log.write(
                    .user, "loadPreviousPage()", "taps \"Load earlier messages\" above message \(snapshot.items[0].id)")
                paginator.loadPreviousPage()
            } else {
                log.write(
                    .user, "preload(index:)", "sees row 0 of \(snapshot.items.count), message \(snapshot.items[0].id)")
                paginator.preload(index: 0)
            }
            if !edited { edit(snapshot) }
            return
        }
        if !edited { edit(snapshot) }
        log.chapter("The top of the chat: someone else posts a message and edits the first one")
        chat.post(text: "a new message from Ann")
        if let first = snapshot.items.first {
            chat.edit(id: first.id, text: "\(first.text), edited by Ann")
        }
        log.chapter("Pull to refresh that keeps every loaded page: refresh(.reloadAll)")
        log.write(
            .user, "refresh(.reloadAll)",
            "pulls to refresh: each of the \(snapshot.pages) pages reloads, then the list changes once")
        outcome.reloads += 1
        act = .reloading
        checker.willRefresh()
        paginator.refresh(.reloadAll)
    }

    /// Deletes the message before the newest and edits the newest, on the server and in the list
    /// (`remove(id:)`, `modify(id:_:)`), while a page loads at the top if one does.
    private func edit(_ snapshot: ChatPaginator.Snapshot) {
        edited = true
        let items = Array(snapshot.items)
        guard let newest = items.last else { return }
        outcome.editedWhileLoading = paginator.loadStates.value.prepend.isLoading
        log.chapter(
            outcome.editedWhileLoading
                ? "While older messages load, the user deletes a message and edits another"
                : "The user deletes a message and edits another")
        if items.count >= 2 {
            let doomed = items[items.count - 2].id
            log.write(.user, "remove(id:)", "deletes message \(doomed)")
            chat.delete(id: doomed)
            let result = paginator.remove(id: doomed)
            log.write(.demo, "EditOutcome", "\(result)")
            outcome.edits.append("message \(doomed) deleted: \(result)")
        }
        let text = "\(newest.text), edited"
        log.write(.user, "modify(id:)", "edits message \(newest.id): \"\(text)\"")
        chat.edit(id: newest.id, text: text)
        let result = paginator.modify(id: newest.id) { message in
            message.text = text
            message.isEdited = true
        }
        log.write(.demo, "EditOutcome", "\(result)")
        outcome.edits.append("message \(newest.id) edited: \(result)")
    }
}
