import Reactive
import Stapler

/// A fake server over an array of items, which makes a page source of every page model.
///
/// ```swift
/// let server = TestPageSource(Array(0..<100), openAt: 50, delivery: .nextTurn(on: scheduler))
/// let paginator = Paginator(source: server.offset(), pageSize: 10, initialKey: server.initialOffset)
/// paginator.refresh()
/// scheduler.advance()
/// #expect(server.requests.map(\.key) == ["50"])
/// ```
///
/// Guarantees:
/// - **Every request is logged**, in order (``requests``), with its key, direction, size and query,
///   before it is answered; a request the paginator disposed before its answer reports
///   ``isDisposed(_:)`` and is never answered.
/// - **Answers as ``TestDelivery`` says**: inside the start call, on a later turn, after a latency, or
///   when the test calls ``answer(_:)``. The page is cut from the list as it is when the answer is made.
/// - **Only keys it produced** (or the opening keys) are served: any other key fails the request with
///   ``TestSourceError/rejected(_:)`` carrying ``TestKitError/unknownKey(_:)``, unless `strictKeys` is
///   false. Keys are kept per query (by its description), across every list served.
/// - **Injected failures** (``TestFailure``) fail the matching requests the given number of times, then
///   let them succeed.
public final class TestPageSource<Item: Sendable, Query: Sendable>: Sendable {
    /// The item the first page opens at.
    public let openAt: Int
    /// When requests are answered.
    public let delivery: TestDelivery
    /// Whether a key the fake never produced fails its request.
    public let strictKeys: Bool
    let failures: [TestFailure]
    // Guarded by its own lock: the list, the log, the parked requests and the produced keys.
    let state: LockedState<ServerState<Item, Query>>

    /// Creates a fake server that serves `lists[0]`, then each next list from the next refresh on.
    ///
    /// - Parameters:
    ///   - lists: The lists the server serves, in order; at least one (a programmer error traps, naming
    ///     `lists`). A refresh after the first moves to the next list, and the last one stays.
    ///   - query: The type of the queries the paginator passes.
    ///   - openAt: The offset of the item the opening key points at; within the first list (a
    ///     programmer error traps, naming `openAt`).
    ///   - delivery: When requests are answered; on a later turn of a global queue by default.
    ///   - failures: Failures to inject.
    ///   - strictKeys: Whether a key the fake never produced fails (true by default; a paginator that
    ///     jumps to a computed page needs false).
    ///   - pageCap: When given, the most items any answer holds, whatever was asked (a server that caps
    ///     its pages); at least 1 (a programmer error traps, naming `pageCap`).
    public init(
        lists: [[Item]], query: Query.Type, openAt: Int = 0, delivery: TestDelivery = .nextTurn,
        failures: [TestFailure] = [], strictKeys: Bool = true, pageCap: Int? = nil
    ) {
        guard let first = lists.first else { fatalError("TestPageSource: lists must hold at least one list") }
        guard openAt >= 0, openAt == 0 || openAt < first.count else {
            fatalError("TestPageSource: openAt must be an offset of the list (0..<\(first.count)), got \(openAt)")
        }
        if let pageCap {
            guard pageCap >= 1 else { fatalError("TestPageSource: pageCap must be at least 1, got \(pageCap)") }
        }
        self.openAt = openAt
        self.delivery = delivery
        self.failures = failures
        self.strictKeys = strictKeys
        state = LockedState(
            ServerState(
                list: first, upcoming: Array(lists.dropFirst()), failureUses: failures.map { _ in 0 },
                pageCap: pageCap))
    }

    /// Creates a fake server over `items` whose paginators pass queries of type `query`.
    ///
    /// - Parameters:
    ///   - items: The list the server serves.
    ///   - query: The type of the queries the paginator passes.
    ///   - openAt: The offset of the item the opening key points at.
    ///   - delivery: When requests are answered.
    ///   - failures: Failures to inject.
    ///   - strictKeys: Whether a key the fake never produced fails.
    ///   - pageCap: When given, the most items any answer holds, whatever was asked (a server that caps
    ///     its pages).
    public convenience init(
        _ items: [Item], query: Query.Type, openAt: Int = 0, delivery: TestDelivery = .nextTurn,
        failures: [TestFailure] = [], strictKeys: Bool = true, pageCap: Int? = nil
    ) {
        self.init(
            lists: [items], query: query, openAt: openAt, delivery: delivery, failures: failures,
            strictKeys: strictKeys, pageCap: pageCap)
    }

    /// The list the server serves now.
    public var items: [Item] { state.withLock { $0.list } }

    /// Every request received, in order.
    public var requests: [TestRequest<Query>] { state.withLock { $0.requests } }

    /// How many requests were received.
    public var requestCount: Int { state.withLock { $0.requests.count } }

    /// The requests parked by `.manual` delivery and not yet answered, failed or disposed, in order.
    public var pendingRequests: [TestRequest<Query>] { state.withLock { $0.parked.map(\.request) } }

    /// The requests neither answered, failed nor disposed yet, in order: parked ones, and those whose
    /// answer is scheduled and has not run.
    public var unansweredRequests: [TestRequest<Query>] {
        state.withLock { state in
            state.requests.filter { !state.answered.contains($0.index) && !state.disposed.contains($0.index) }
        }
    }

    /// The parked requests as the work a settling wait reports (``TestKitError/notSettled(pending:)``):
    /// one ``PendingWork/load(_:key:)`` each, in order.
    public var pendingWork: [PendingWork] {
        pendingRequests.map { .load($0.direction, key: $0.key) }
    }

    /// Whether `request` was disposed (interrupted) before it was answered.
    ///
    /// - Parameter request: A request of the log.
    /// - Returns: True if the paginator let go of it unanswered.
    public func isDisposed(_ request: TestRequest<Query>) -> Bool {
        state.withLock { $0.disposed.contains(request.index) }
    }

    /// Serves `list` from now on: every answer made after this call cuts its page from it.
    ///
    /// - Parameter list: The new list.
    public func serve(_ list: [Item]) {
        state.withLock { $0.list = list }
    }

    /// Changes the list served from now on, as a live feed does (rows inserted or deleted above).
    ///
    /// `change` runs outside the fake's lock, on a copy of the list that then replaces it: call it
    /// between answers, not while another thread answers requests.
    ///
    /// - Parameter change: Edits the list in place.
    public func mutate(_ change: (inout [Item]) -> Void) {
        var list = state.withLock { $0.list }
        change(&list)
        state.withLock { $0.list = list }
    }

    /// Inserts `rows` at the top of the list, as new posts arrive above a feed: offsets and page numbers
    /// now point at other items, cursors still at theirs.
    ///
    /// - Parameter rows: The new rows, in order.
    public func insertAtTop(_ rows: [Item]) {
        state.withLock { state in
            state.list.insert(contentsOf: rows, at: 0)
            state.topShift += rows.count
        }
    }

    /// Removes the first `count` rows of the list, as deleted posts leave a feed: offsets and page
    /// numbers now point at other items, cursors still at theirs.
    ///
    /// - Parameter count: How many rows to remove; at most the list's count (a programmer error traps,
    ///   naming `count`).
    public func removeFromTop(_ count: Int) {
        state.withLock { state in
            guard count >= 0, count <= state.list.count else {
                fatalError("TestPageSource: count must be within 0...\(state.list.count), got \(count)")
            }
            state.list.removeFirst(count)
            state.topShift -= count
        }
    }

    /// Answers a parked request with its page, cut from the list as it is now.
    ///
    /// - Parameter request: A request of ``pendingRequests``; one no longer pending is ignored.
    public func answer(_ request: TestRequest<Query>) {
        finish(request.index, failure: nil)
    }

    /// Answers every request pending at the call, in order (requests they cause stay pending).
    public func answerAll() {
        for request in pendingRequests { answer(request) }
    }

    /// Fails a parked request.
    ///
    /// - Parameters:
    ///   - request: A request of ``pendingRequests``; one no longer pending is ignored.
    ///   - error: The failure; ``TestSourceError/injected(key:request:)`` for the request by default.
    public func fail(_ request: TestRequest<Query>, with error: TestSourceError? = nil) {
        finish(request.index, failure: error ?? .injected(key: request.key, request: request.index))
    }

    /// Runs the answer of a parked request, if it is still parked.
    func finish(_ index: Int, failure: TestSourceError?) {
        let parked = state.withLock { state -> ParkedRequest<Query>? in
            guard let position = state.parked.firstIndex(where: { $0.request.index == index }) else { return nil }
            return state.parked.remove(at: position)
        }
        parked?.answer(failure)
    }
}

extension TestPageSource where Query == Void {
    /// Creates a fake server over `items` for paginators without a query.
    ///
    /// - Parameters:
    ///   - items: The list the server serves.
    ///   - openAt: The offset of the item the opening key points at.
    ///   - delivery: When requests are answered; on a later turn of a global queue by default.
    ///   - failures: Failures to inject.
    ///   - strictKeys: Whether a key the fake never produced fails.
    ///   - pageCap: When given, the most items any answer holds, whatever was asked (a server that caps
    ///     its pages).
    public convenience init(
        _ items: [Item], openAt: Int = 0, delivery: TestDelivery = .nextTurn, failures: [TestFailure] = [],
        strictKeys: Bool = true, pageCap: Int? = nil
    ) {
        self.init(
            lists: [items], query: Void.self, openAt: openAt, delivery: delivery, failures: failures,
            strictKeys: strictKeys, pageCap: pageCap)
    }

    /// Creates a fake server that serves `lists[0]`, then each next list from the next refresh on, for
    /// paginators without a query.
    ///
    /// - Parameters:
    ///   - lists: The lists the server serves, in order; at least one.
    ///   - openAt: The offset of the item the opening key points at.
    ///   - delivery: When requests are answered.
    ///   - failures: Failures to inject.
    ///   - strictKeys: Whether a key the fake never produced fails.
    ///   - pageCap: When given, the most items any answer holds, whatever was asked (a server that caps
    ///     its pages).
    public convenience init(
        lists: [[Item]], openAt: Int = 0, delivery: TestDelivery = .nextTurn, failures: [TestFailure] = [],
        strictKeys: Bool = true, pageCap: Int? = nil
    ) {
        self.init(
            lists: lists, query: Void.self, openAt: openAt, delivery: delivery, failures: failures,
            strictKeys: strictKeys, pageCap: pageCap)
    }
}
