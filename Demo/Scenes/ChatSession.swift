import Reactive
import Stapler

/// The user of the chat scenes, after the shop: a chat that opens at its newest message and pages
/// older ones at the top, a message deleted and one edited while a page loads, and a pull to refresh
/// that reloads every loaded page.
///
/// Like ``ScriptedSession``, the user acts on ticks of the simulation's clock, reads the paginator as
/// a screen would, and calls its API as a chat screen does: `refresh()` (the paginator was made with
/// `initialKey` at the newest page), `loadPreviousPage()` for its "Load earlier messages" button and
/// `preload(index: 0)` for the top row as it appears,
/// `remove(id:)` and `modify(id:_:)`, `retry()`, `refresh(.reloadAll)`, and `preload(index:)` at the
/// bottom when new messages wait there.
@MainActor
final class ChatSession {
    typealias ChatPaginator = Paginator<Message, Int, Void, MessagesPage, ServerError>

    private enum Act {
        case scrollingUp
        case reloading
        case scrollingDown
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
    }

    private let paginator: ChatPaginator
    private let chat: SimulatedChat
    private let simulation: Simulation
    private let log: Log
    private let checker: InvariantChecker<Message, Void, ServerError>
    private let maximumRetries: Int
    private let initialKey: Int

    private let tick: Duration = .milliseconds(300)
    private var act = Act.scrollingUp
    private var failuresInARow = 0
    private var scrolledUp = false
    private var edited = false
    private(set) var outcome = Outcome()

    /// Creates the user of `paginator`, which pages `chat` and opens at `initialKey`; after
    /// `maximumRetries` failed retries in a row the user gives up.
    init(
        paginator: ChatPaginator, chat: SimulatedChat, simulation: Simulation, log: Log,
        checker: InvariantChecker<Message, Void, ServerError>, maximumRetries: Int, initialKey: Int
    ) {
        self.paginator = paginator
        self.chat = chat
        self.simulation = simulation
        self.log = log
        self.checker = checker
        self.maximumRetries = maximumRetries
        self.initialKey = initialKey
    }

    /// Schedules the first action; `Simulation.run()` plays the rest.
    func start() {
        simulation.schedule(after: .zero) { [self] in
            log.chapter("A chat opens at its newest message (initialKey: offset \(initialKey), the last page)")
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
                act = .finished
                return
            }
            if case .data = snapshot.state {
                let last = snapshot.items.count - 1
                log.write(.user, "preload(index:)", "sees row \(last), the newest loaded: newer messages wait below")
                paginator.preload(index: last)
            }
        case .finished, .gaveUp:
            return
        }
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
