import Stapler

/// Why a test kit call failed: each case names what the test must look at, so a misused kit fails the
/// test with a message instead of hanging it.
public enum TestKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Work is pending that nothing will finish within the wait: a load nobody answers (a fake source's
    /// `.manual` request), or work on a real scheduler that outlasted the timeout.
    case notSettled(pending: [PendingWork])
    /// A fake source was asked for a key it never produced (the app computed a key of its own), named by
    /// its description.
    case unknownKey(String)
    /// A scroll or fling asked for a row past the end of a list whose end is reached.
    case scrolledPastEnd(requested: Int, count: Int)
    /// A scroll stopped at row `row` of `count`: the list did not grow although its end was not reached and
    /// no load failed (the paginator was asked for the rows and loaded nothing).
    case stalled(row: Int, count: Int)
    /// A load failed while a snapshot ran with the `.throw` error handling.
    case loadFailed(direction: PageDirection, key: String, underlying: String)
    /// A load kept failing while a snapshot ran with `.retry(max:)` error handling: the request was
    /// made `attempts` times in all.
    case retriesExhausted(direction: PageDirection, key: String, attempts: Int, lastError: String)

    /// What went wrong, in words a test failure can print.
    public var description: String {
        switch self {
        case .notSettled(let pending):
            "the list did not settle; still pending: \(pending.map(\.description).joined(separator: ", "))"
        case .unknownKey(let key):
            "the fake source was asked for key \(key), which it never produced"
        case .scrolledPastEnd(let requested, let count):
            "scrolled to row \(requested) of a list that ends after \(count) rows"
        case .stalled(let row, let count):
            "the list stopped growing at row \(row) of \(count), with its end not reached and no load failed"
        case .loadFailed(let direction, let key, let underlying):
            "the \(direction) load of key \(key) failed: \(underlying)"
        case .retriesExhausted(let direction, let key, let attempts, let lastError):
            "the \(direction) load of key \(key) failed \(attempts) times; the last error: \(lastError)"
        }
    }
}

/// Work a paginator still waits for, as ``TestKitError/notSettled(pending:)`` reports it.
public enum PendingWork: Sendable, Hashable, CustomStringConvertible {
    /// A load in flight at an edge, for the key named by its description.
    case load(PageDirection, key: String)
    /// An automatic retry of an edge, scheduled and not yet due.
    case retry(PageDirection)
    /// Publications made and not yet delivered to the observers (a delivery scheduler that is not run).
    case deliveries

    /// A load in flight at the bottom, for `key`.
    public static func append(key: some Sendable) -> PendingWork { .load(.append, key: String(describing: key)) }
    /// A load in flight at the top, for `key`.
    public static func prepend(key: some Sendable) -> PendingWork { .load(.prepend, key: String(describing: key)) }
    /// A refresh in flight, for `key`.
    public static func refresh(key: some Sendable) -> PendingWork { .load(.refresh, key: String(describing: key)) }

    /// The work, in words.
    public var description: String {
        switch self {
        case .load(let direction, let key): "\(direction)(key: \(key))"
        case .retry(let direction): "retry(\(direction))"
        case .deliveries: "deliveries"
        }
    }
}
