import Reactive
import Stapler

/// Scrolls a paginator as a list view does, for a test: the operations of
/// `Paginator.settledRows(onError:timeout:advancing:_:)`.
///
/// The driver moves a current row through the list and, like a list view, tells the paginator which rows
/// are shown only through `preload(index:)`; it never calls `loadNextPage()` itself. Rows are slots: with
/// placeholders on, a row of the whole list, loaded or not; separators, headers and footers are the
/// transformed list's business, not the paginator's.
///
/// - ``scroll(to:)`` moves one row at a time and waits for each row (the paginator settled) before the
///   next, so every page on the way is requested in order.
/// - ``fling(to:)`` lands without waiting on the way: only the row it lands on is shown, so it passes
///   through placeholders and can make the paginator jump there. Without placeholders, it lands on the last
///   loaded row and scrolls on from there.
/// - Target rows refer to the list as it was when the call started: the driver follows its row through
///   rows prepended meanwhile. Row 0 scrolled to upwards is the top of the list, however many pages are
///   prepended on the way.
///
/// A failed load is handled as the snapshot's ``SnapshotErrorHandling`` says, each time the driver waits.
public final class ScrollDriver<
    Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error
> {
    /// The paginator driven.
    public let paginator: Paginator<Item, Key, Query, Metadata, Failure>
    /// The current row, in the latest snapshot's slots.
    public private(set) var row = 0
    /// The failures met and returned (with ``SnapshotErrorHandling/returnShown``), in order.
    public private(set) var failures: [LoadFailure] = []

    let onError: SnapshotErrorHandling
    let timeout: Duration
    let scheduler: TestScheduler?
    /// Where the slots of the generation's first page start, in the snapshot ``row`` refers to: rows
    /// prepended since move both.
    private var origin = 0
    /// The row a scroll goes to, moved like ``row`` by rows prepended meanwhile.
    private var goal: Int?
    /// The list ``row`` refers to (a new list starts with each first page, a catch-up that could not meet
    /// the rows, or a restored list).
    private var list: UInt64 = 0
    /// The requests made for each failed edge and key, counting the first, since the list was last settled
    /// with no failure.
    private var attempts: [String: Int] = [:]

    init(
        _ paginator: Paginator<Item, Key, Query, Metadata, Failure>, onError: SnapshotErrorHandling,
        timeout: Duration, scheduler: TestScheduler?
    ) {
        self.paginator = paginator
        self.onError = onError
        self.timeout = timeout
        self.scheduler = scheduler
        let snapshot = paginator.snapshot.value
        origin = Self.origin(of: snapshot)
        list = snapshot.listSerial
    }

    // MARK: Operations

    /// Scrolls to `target` one row at a time, waiting for each row, as a user reading the list would.
    ///
    /// - Parameter target: A row of the list as it is when the call starts.
    /// - Throws: ``TestKitError/scrolledPastEnd(requested:count:)`` past the last row of a list whose end
    ///   is reached; ``TestKitError/stalled(row:count:)``, or the error handling's errors.
    nonisolated(nonsending) public func scroll(to target: Int) async throws {
        guard target >= 0 else { fatalError("ScrollDriver.scroll(to:): target must not be negative, got \(target)") }
        follow()
        try await scroll(toGoal: target)
    }

    /// Scrolls to row `target` of the list as it was when the operation started (``goal``, which rows
    /// prepended since move), or to the top of the list for 0, one row at a time.
    nonisolated(nonsending) private func scroll(toGoal target: Int) async throws {
        goal = target
        defer { goal = nil }
        try await wait()
        if target == 0 {
            // The top of the list, however many pages are prepended on the way.
            while try await step(down: false, requested: target) {}
            return
        }
        while let goal {
            if row < goal {
                try await step(down: true, requested: target)
            } else if row > goal {
                guard try await step(down: false, requested: target) else { return }
            } else {
                return
            }
        }
    }

    /// Scrolls in `direction` one row at a time while `predicate` holds for the row reached, waiting for
    /// each row; stops on the first row that fails it (shown, so its page and any page it prefetches are
    /// loaded) or at the end of the list, without throwing.
    ///
    /// - Parameters:
    ///   - direction: ``ScrollDirection/down`` towards the bottom, ``ScrollDirection/up`` towards the top.
    ///   - predicate: Whether to go on past an item.
    /// - Throws: ``TestKitError/stalled(row:count:)``, or the error handling's errors.
    nonisolated(nonsending) public func scroll(_ direction: ScrollDirection, while predicate: (Item) -> Bool)
        async throws
    {
        try await wait()
        while rowCount > 0 {
            guard let item = paginator.snapshot.value.slots[row].item else {
                throw TestKitError.stalled(row: row, count: rowCount)
            }
            guard predicate(item) else { return }
            if direction == .down {
                if row + 1 >= rowCount && isBottomReached { return }
                try await step(down: true, requested: nil)
            } else {
                if row == 0 && isTopReached { return }
                guard try await step(down: false, requested: nil) else { return }
            }
        }
    }

    /// Lands on `target` without waiting on the way, then waits.
    ///
    /// Only the row it lands on is shown, so it can make the paginator jump there through placeholders.
    /// Without placeholders it lands on the last loaded row and scrolls on from there.
    ///
    /// - Parameter target: A row of the list as it is when the call starts.
    /// - Throws: The errors of ``scroll(to:)``.
    nonisolated(nonsending) public func fling(to target: Int) async throws {
        guard target >= 0 else { fatalError("ScrollDriver.fling(to:): target must not be negative, got \(target)") }
        follow()
        let landing = min(target, max(rowCount - 1, 0))
        if landing != row {
            row = landing
            paginator.preload(index: row)
        }
        try await scroll(toGoal: target)
    }

    /// Refreshes the list and waits: the driver's row goes back to the top of the new list.
    ///
    /// - Throws: The error handling's errors.
    nonisolated(nonsending) public func refresh() async throws {
        started { paginator.refresh() }
        try await wait()
        row = 0
    }

    // MARK: Steps

    /// Moves one row down or up, shows it and waits; returns `false` at the top of a list whose top is
    /// reached.
    @discardableResult
    nonisolated(nonsending) private func step(down: Bool, requested: Int?) async throws -> Bool {
        var stalls = 0
        while true {
            let count = rowCount
            if down ? row + 1 < count : row > 0 {
                row += down ? 1 : -1
                paginator.preload(index: row)
                try await wait()
                return true
            }
            if down && isBottomReached {
                guard let requested else { return false }
                throw TestKitError.scrolledPastEnd(requested: requested, count: count)
            }
            if !down && isTopReached { return false }
            // The edge is not reached: show the edge row again, as a list view does when it bounces there.
            stalls += 1
            if stalls > 2 { throw TestKitError.stalled(row: row, count: count) }
            paginator.preload(index: row)
            try await wait()
        }
    }

    /// Waits until the paginator is settled, follows the current row through rows prepended meanwhile,
    /// and handles the failed loads as the error handling says.
    nonisolated(nonsending) func wait() async throws {
        while true {
            try await paginator.settled(timeout: timeout, advancing: scheduler)
            follow()
            let failed = paginator.failedLoads()
            guard !failed.isEmpty else {
                // A request that succeeded starts its count again if it fails later.
                attempts.removeAll()
                return
            }
            try await handle(failed)
        }
    }

    /// Handles the failed loads: rethrows the first, retries them all, or stops the operations with the
    /// rows shown.
    nonisolated(nonsending) private func handle(_ failed: [FailedEngineLoad]) async throws {
        let failures = failed.map { LoadFailure($0.direction, key: $0.key, error: String(describing: $0.error)) }
        switch onError {
        case .throw:
            let first = failures[0]
            throw TestKitError.loadFailed(direction: first.direction, key: first.key, underlying: first.error)
        case .retry(let max):
            // `retry()` asks again for every failed edge: each one's request counts.
            for failure in failures {
                let made = attempts[failure.id, default: 1]
                guard made <= max else {
                    throw TestKitError.retriesExhausted(
                        direction: failure.direction, key: failure.key, attempts: made, lastError: failure.error)
                }
            }
            for failure in failures { attempts[failure.id, default: 1] += 1 }
            started { paginator.retry() }
        case .returnShown:
            self.failures.append(contentsOf: failures)
            throw StopWithShownRows()
        }
    }

    /// Moves ``row`` by the rows prepended since it was last placed.
    ///
    /// In a new list (a jump, a refresh the app made) the row keeps its index: with placeholders, slots
    /// keep their place in the whole list.
    private func follow() {
        let snapshot = paginator.snapshot.value
        let newOrigin = Self.origin(of: snapshot)
        if snapshot.listSerial == list {
            row += newOrigin - origin
            goal? += newOrigin - origin
        }
        list = snapshot.listSerial
        origin = newOrigin
        row = min(max(row, 0), max(snapshot.slots.count - 1, 0))
    }

    // MARK: Reading

    private var rowCount: Int { paginator.snapshot.value.slots.count }
    private var isTopReached: Bool { paginator.loadStates.value.prepend.isEndReached }
    private var isBottomReached: Bool { paginator.loadStates.value.append.isEndReached }

    /// Where the slots of the generation's first page start: a prepended page moves it down without
    /// placeholders (rows are added above), and not with them (placeholders above become rows).
    private static func origin(of snapshot: PagingSnapshot<Item, Metadata, Failure>) -> Int {
        snapshot.placeholdersBefore + snapshot.leadingCount
    }
}

extension LoadFailure {
    /// The edge and key, as the retry counts know a request.
    fileprivate var id: String { "\(direction)/\(key)" }
}

/// Makes `call` a synchronous call: in an `async` function the paginator's `async` overload would be
/// chosen, which waits for the load's outcome; the kit starts the load and waits for the paginator to be
/// settled instead.
func started<Failure>(_ call: () -> LoadOutcome<Failure>) {
    _ = call()
}

/// A direction of scrolling.
public enum ScrollDirection: Sendable, Hashable {
    /// Towards the top of the list.
    case up
    /// Towards the bottom of the list.
    case down
}

/// Ends the operations of a snapshot early, with the rows shown (``SnapshotErrorHandling/returnShown``).
struct StopWithShownRows: Error {}
