import Stapler

/// The chat part of the default run, played after the shop on the same clock and log: a chat opened
/// at its newest message (``ChatSession``) against ``SimulatedChat``, checked by its own
/// ``InvariantChecker``.
@MainActor
struct ChatRun {
    /// How the chat part ended, for the summary and the exit status.
    struct Result {
        let summary: String
        let violations: [String]
        let checks: Int
        let complete: Bool
        let gaveUp: Bool
    }

    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// Plays the chat scenes to their end and sums them up.
    func run() -> Result {
        let pageSize = options.simulatedPageSize
        let count = options.messageCount
        // The newest page: the offset of the last page on the page grid, 0 for a short chat.
        let newestPage = count > 0 ? (count - 1) / pageSize * pageSize : 0
        let chat = SimulatedChat(
            count: count, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, random: SplitMix(seed: options.seed ^ 0x6368_6174))
        let paginator = ChatSession.ChatPaginator(
            source: chat.source, pageSize: pageSize, initialKey: newestPage, deduplication: .byID)
        let checker = InvariantChecker<Message, Void, ServerError>(
            query: (), log: log, expectedIDs: { _ in chat.ids }, describeQuery: { _ in "the chat" })
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        // The screen's rows: the messages under a header per day, changing incrementally with the chat.
        let timeline = paginator.transformed(by: ChatTimeline.transform)
        let timelineLogger = TimelineLogger(timeline, of: paginator, log: log)
        let session = ChatSession(
            paginator: paginator, chat: chat, simulation: simulation, log: log, checker: checker,
            maximumRetries: options.retries, initialKey: newestPage)
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
        let summary = """
              chat         \(ids.count) of the \(chat.count) messages\
            \(complete ? ", every one, the top and the end reached" : ", incomplete"), state \(snapshot.state.name)
              chat user    \(plural(outcome.reloads, "reload of every page", "reloads of every page")), \
            \(plural(outcome.retries, "retry", "retries"))\(outcome.gaveUp ? ", then gave up" : "")
              chat rows    \(timeline.items.value.count) rows: the messages under \(plural(days, "day header", "day headers")), \
            \(plural(timelineLogger.changes, "timeline change", "timeline changes"))\
            \(timelineLogger.violations.isEmpty ? ", each one applied" : ", \(timelineLogger.violations.count) broken")
              chat edits   \(edits)\(outcome.editedWhileLoading ? ", while a page loaded" : "")
              chat server  \(plural(statistics.requests, "request", "requests")): \(statistics.answered) answered, \(statistics.failed) failed, \
            \(statistics.cancelled) cancelled
            """
        return Result(
            summary: summary, violations: checker.violations + timelineLogger.violations, checks: checker.checkCount,
            complete: complete,
            gaveUp: outcome.gaveUp)
    }
}
