import Stapler

/// The chat part of the default run, played after the shop on the same clock and log: a chat opened
/// at its newest message (``ChatSession``) against ``SimulatedChat`` and its ``ChatSocket``, checked by
/// its own ``InvariantChecker``.
@MainActor
struct ChatRun {
    /// How the chat part ended, for the summary and the exit status.
    struct Result {
        let summary: String
        let violations: [String]
        let checks: Int
        let complete: Bool
        let gaveUp: Bool
        /// The ids of the chat's rows at the end, in order, and of the server's messages.
        let ids: [Int]
        let serverIDs: [Int]
        /// The messages the socket pushed, with what `insert(contentsOf:at: .bottom)` returned for each.
        let liveRows: [(id: Int, outcome: EditOutcome)]
        /// The messages posted while the socket was down.
        let missedIDs: [Int]
        /// The rows still local at the end (no page brought the server's copy).
        let localRowsLeft: [Int]
        /// What `catchUp(at: .bottom)` returned, if it was called.
        let catchUp: String?
    }

    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// Plays the chat scenes to their end and sums them up.
    func run() -> Result {
        let pageSize = options.simulatedPageSize
        let chat = SimulatedChat(
            count: options.messageCount, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, random: SplitMix(seed: options.seed ^ 0x6368_6174))
        let socket = ChatSocket(chat: chat, simulation: simulation, log: log, latency: .milliseconds(30))
        // The deduplication by id is what a catch-up merges by, and what replaces a local row in place.
        let paginator = ChatSession.ChatPaginator(
            source: chat.source,
            options: PagingOptions(pageSize: pageSize, deduplication: .byID))
        let checker = InvariantChecker<Message, Void, ServerError>(
            query: (), log: log, expectedIDs: { _ in chat.ids }, describeQuery: { _ in "the chat" })
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        // The screen's rows: the messages under a header per day, changing incrementally with the chat.
        let timeline = paginator.transformed(by: ChatTimeline.transform)
        let timelineLogger = TimelineLogger(timeline, of: paginator, log: log)
        let session = ChatSession(
            paginator: paginator, chat: chat, socket: socket, simulation: simulation, log: log, checker: checker,
            maximumRetries: options.retries, liveMessages: 3, missedMessages: pageSize + 2)
        session.start()
        simulation.run()
        logging.dispose()
        checking.dispose()
        timelineLogger.dispose()
        let days = timeline.items.value.filter { if case .day = $0 { true } else { false } }.count

        let snapshot = paginator.snapshot.value
        let outcome = session.outcome
        let statistics = chat.statistics
        let ids = snapshot.items.map(\.id)
        let complete = ids == chat.ids && snapshot.isEndReached
        let edits = outcome.edits.isEmpty ? "no edits" : outcome.edits.joined(separator: ", ")
        let localRowsLeft = snapshot.items.filter(\.fromSocket).map(\.id)
        let applied = outcome.liveRows.filter { $0.outcome == .applied }.count
        let live =
            outcome.liveRows.isEmpty
            ? "no live messages"
            : "\(outcome.liveRows.count) from the socket, \(applied) added at .bottom as local rows; "
                + "\(socket.missed.count) missed while offline, catchUp(at: .bottom) \(outcome.catchUp ?? "not called"), "
                + (localRowsLeft.isEmpty ? "no local row left" : "\(localRowsLeft.count) local rows left")
        let summary = """
              chat         \(ids.count) of the \(chat.count) messages\
            \(complete ? ", every one, the top and the end reached" : ", incomplete"), state \(snapshot.state.name)
              chat user    \(plural(outcome.reloads, "reload of every page", "reloads of every page")), \
            \(plural(outcome.retries, "retry", "retries"))\(outcome.gaveUp ? ", then gave up" : "")
              chat rows    \(timeline.items.value.count) rows: the messages under \(plural(days, "day header", "day headers")), \
            \(plural(timelineLogger.changes, "timeline change", "timeline changes"))\
            \(timelineLogger.violations.isEmpty ? ", each one applied" : ", \(timelineLogger.violations.count) broken")
              chat edits   \(edits)\(outcome.editedWhileLoading ? ", while a page loaded" : "")
              chat live    \(live)
              chat server  \(plural(statistics.requests, "request", "requests")): \(statistics.answered) answered, \(statistics.failed) failed, \
            \(statistics.cancelled) cancelled
            """
        return Result(
            summary: summary, violations: checker.violations + timelineLogger.violations, checks: checker.checkCount,
            complete: complete, gaveUp: outcome.gaveUp, ids: ids, serverIDs: chat.ids, liveRows: outcome.liveRows,
            missedIDs: socket.missed, localRowsLeft: localRowsLeft, catchUp: outcome.catchUp)
    }
}
