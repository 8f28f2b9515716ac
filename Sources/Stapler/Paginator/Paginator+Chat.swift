// What a chat needs beyond paging: live rows added at an end, and asking an ended edge again.
//
// A chat on a cursor API opens at its newest page and pages older; its newest end has no next cursor, so
// the bottom edge ends. A message that arrives live (a socket, a push) is added at the bottom as a local
// row, with no index to race with deliveries. After a reconnect, `catchUp(at: .bottom)` asks the newest
// page again by its stored key and merges it by identity: a local row the server now returns is replaced
// in place, never shown twice, and a gap of several missed pages is never hidden.

extension Paginator {
    /// Adds `rows` at `end` of the list as it is now (a live message at the bottom of a chat), as one
    /// update.
    ///
    /// The rows join the page at that end, with no index to race with deliveries. With deduplication,
    /// rows whose identity the list has had are skipped, and the others are local rows until a page brings
    /// a row of the same identity: that row then replaces the local one in place (never shown twice).
    ///
    /// Local rows are rows of the list like any other: edits apply to them, a saved list carries them
    /// (as rows: after a restore, a server copy of one is dropped as a duplicate instead of replacing
    /// it), and a memory bound that drops their page drops them. A catch-up keeps those the server has not
    /// returned yet; a refresh that commits (any mode, ``RefreshMode/reloadAll`` included) replaces the
    /// list with the server's, without them.
    ///
    /// ```swift
    /// socket.onMessage { message in paginator.insert(contentsOf: [message], at: .bottom) }
    /// ```
    ///
    /// - Parameters:
    ///   - rows: The rows to add, in list order.
    ///   - end: The end to add them at.
    /// - Returns: ``EditOutcome/applied``, ``EditOutcome/alreadyShown`` when every row was shown
    ///   already (or `rows` is empty), or ``EditOutcome/notLoaded`` before the first page.
    /// - Complexity: O(rows + page size + log pages).
    @inlinable
    @discardableResult
    public func insert(contentsOf rows: [Item], at end: ListEnd) -> EditOutcome {
        guard !rows.isEmpty else { return .alreadyShown }
        return engine.edit { _ in .edit(.insertRows(rows, at: end)) }
    }

    /// Asks the page at `end` again by its stored key, even after that edge ended, and merges what the
    /// server has now with the rows shown, by identity ("are there newer messages now?").
    ///
    /// Rows shown from where the fresh page meets the list to that end, which the fresh page lacks, are
    /// removed (the fresh page proves them gone); rows beyond stay, and copies of fresh rows among them
    /// go. When the fresh page meets no row shown (more new rows than a page), the pages next to it,
    /// toward the rows shown, are loaded too, up to `maxPages` in all; if none meets the list, the fresh
    /// pages replace the rows, so that a gap of missed pages is never hidden. Local rows the server has not
    /// returned yet stay at their end. The edge then asks for the key the fresh pages name beyond it, or
    /// stays ended. The merge is published as one keyed difference.
    ///
    /// The edge's load state is `loading` while it runs; a failed page leaves that edge failed, and
    /// ``retry()-1n6nq`` asks for it again and goes on merging.
    ///
    /// ```swift
    /// // A chat shown newest last, after the socket reconnects:
    /// paginator.catchUp(at: .bottom)
    /// ```
    ///
    /// - Parameters:
    ///   - end: The end to catch up.
    ///   - maxPages: How many pages it may load before it replaces the rows it could not meet (at least
    ///     1; a smaller value traps, naming `maxPages`).
    /// - Returns: ``LoadOutcome/started``, or ``LoadOutcome/ignored(_:)`` with the reason: before the
    ///   first page, while a refresh or that edge loads, or while a memory bound keeps pages dropped beyond
    ///   that end.
    /// - Precondition: The paginator deduplicates (it merges by identity); without a deduplication it
    ///   traps, naming `deduplication`.
    @inlinable
    @discardableResult
    public func catchUp(at end: ListEnd = .bottom, maxPages: Int = 3) -> LoadOutcome<Failure> {
        guard maxPages >= 1 else {
            fatalError("Paginator.catchUp(at:maxPages:): maxPages must be at least 1, got \(maxPages)")
        }
        guard engine.identities != nil else {
            fatalError("Paginator.catchUp(at:maxPages:) merges by identity: create the paginator with a deduplication")
        }
        var reason: IgnoredReason?
        engine.send { $0.receiveCatchUp(at: end, maxPages: maxPages, reason: &reason) }
        return reason.map { .ignored($0) } ?? .started
    }
}
