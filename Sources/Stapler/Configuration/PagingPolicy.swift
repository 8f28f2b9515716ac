import Reactive

/// What a paginator does about slow networks and bad servers.
///
/// A load timeout, a cap on pages that add nothing, and automatic retries. Every policy is off by
/// default but the cap on duplicate pages, and every one runs on ``clock``, so a `TestScheduler` drives
/// them all.
public struct PagingPolicy: Sendable {
    /// How long a load may go without its page before it fails with ``PagingError/timedOut``.
    ///
    /// `nil` (the default) waits forever. The request is disposed and a late answer never applied. The
    /// timer starts just before the request: a timer that fires first (a very short timeout on a busy
    /// thread) ends the load timed out without starting its request.
    public var loadTimeout: Duration?
    /// How many pages in a row may add no new item before that end of the list stops with
    /// ``StopReason/noProgress(pages:)``.
    ///
    /// With `nil` (the default) an empty page ends the list at once, and three pages in a row of
    /// duplicates only (with deduplication) end it too. With a number `n`, an empty page that names a key
    /// further on does not end the list: the paginator requests that key by itself (no new row would
    /// prompt the user interface to), as it does after a page of duplicates, until `n` such pages in a
    /// row end it. A page that adds a row, or a refresh, starts the count again.
    public var noProgressLimit: Int?
    /// Requests a failed page again by itself, with backoff; `nil` (the default) leaves it to `retry()`.
    public var autoRetry: AutoRetry?
    /// Whether `refresh(query:)` with another query blanks the list at once.
    ///
    /// With `true`, one ``ItemsChange/cleared`` is published in the same call; with `false` (the
    /// default), the old query's rows show until the new first page arrives. A `cancel()` of that refresh brings the old rows, query and keys back in
    /// one update; if it fails, the list stays empty. Queries are compared with `==` when they are
    /// `Equatable`; otherwise every `refresh(query:)` counts as a change.
    public var clearsOnQueryChange: Bool
    /// The clock of the timeout and the backoff; by default a background queue's.
    public var clock: any TimeScheduler

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - loadTimeout: The longest wait for a page; `nil` for none.
    ///   - noProgressLimit: How many pages in a row may add nothing; see ``noProgressLimit``.
    ///   - autoRetry: The automatic retries; `nil` for none.
    ///   - clearsOnQueryChange: Whether a query change blanks the list at once.
    ///   - clock: The clock of the timeout and the backoff.
    public init(
        loadTimeout: Duration? = nil, noProgressLimit: Int? = nil, autoRetry: AutoRetry? = nil,
        clearsOnQueryChange: Bool = false, clock: any TimeScheduler = QueueScheduler(label: "Stapler.PagingPolicy")
    ) {
        if let noProgressLimit, noProgressLimit < 1 {
            fatalError("PagingPolicy: noProgressLimit must be at least 1, got \(noProgressLimit)")
        }
        if let loadTimeout, loadTimeout <= .zero {
            fatalError("PagingPolicy: loadTimeout must be positive, got \(loadTimeout)")
        }
        self.loadTimeout = loadTimeout
        self.noProgressLimit = noProgressLimit
        self.autoRetry = autoRetry
        self.clearsOnQueryChange = clearsOnQueryChange
        self.clock = clock
    }

    /// No timeout, no automatic retry, an empty page ends the list, three duplicate pages in a row too.
    public static var `default`: PagingPolicy { PagingPolicy() }

    /// How many pages of duplicates in a row end the list when ``noProgressLimit`` is `nil`.
    @inlinable
    static var duplicatePageLimit: Int { 3 }
}

/// Automatic retries of a failed page, with exponential backoff and jitter.
///
/// A failed load whose error ``PagingError/isRetryable`` is requested again with the same key, direction
/// and query after `min(maxDelay, base × factor^k)` (k = 0 for the first retry), scaled by a jitter in
/// `1 - jitter ... 1 + jitter` taken from `random` (a number in `0..<1`), on the policy's clock. After
/// `maxRetries` retries the failure stands; an explicit `retry()` runs at once and starts the count
/// again. A refresh, `cancel()`, a query change or the paginator's release cancels a pending retry, and
/// `preload(index:)` never adds one.
public struct AutoRetry: Sendable {
    /// How many retries follow one failure, at most.
    public var maxRetries: Int
    /// The delay before the first retry.
    public var base: Duration
    /// How much each delay grows over the one before.
    public var factor: Double
    /// The longest delay.
    public var maxDelay: Duration
    /// How far a delay may stray from its value, as a fraction (0.25 is ±25 %).
    public var jitter: Double
    /// A random number in `0..<1` for the jitter; inject a seeded one in tests.
    public var random: @Sendable () -> Double

    /// Creates automatic retries; the defaults are TanStack Query's (3 retries, 1 s doubling to 30 s).
    ///
    /// - Parameters:
    ///   - maxRetries: How many retries, at least 1.
    ///   - base: The first delay.
    ///   - factor: The growth of each delay, at least 1.
    ///   - maxDelay: The longest delay.
    ///   - jitter: The fraction a delay may stray by, in `0...1`.
    ///   - random: A random number in `0..<1`.
    public init(
        maxRetries: Int = 3, base: Duration = .seconds(1), factor: Double = 2, maxDelay: Duration = .seconds(30),
        jitter: Double = 0.25, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        guard maxRetries >= 1 else { fatalError("AutoRetry: maxRetries must be at least 1, got \(maxRetries)") }
        guard factor >= 1 else { fatalError("AutoRetry: factor must be at least 1, got \(factor)") }
        guard (0...1).contains(jitter) else { fatalError("AutoRetry: jitter must be in 0...1, got \(jitter)") }
        self.maxRetries = maxRetries
        self.base = base
        self.factor = factor
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.random = random
    }

    /// The delay before retry number `attempt` (0 for the first).
    @inlinable
    func delay(attempt: Int) -> Duration {
        var delay = base
        for _ in 0..<attempt {
            delay = delay * factor
            if delay >= maxDelay { break }
        }
        delay = min(delay, maxDelay)
        let scale = 1 - jitter + 2 * jitter * random()
        return delay * scale
    }
}

/// Why loading stopped at the bottom of the list, as one value a user interface can switch on.
public enum StopReason<Failure: Error>: Sendable {
    /// The last page was loaded.
    case endOfList
    /// The first page came back empty.
    case emptyFirstPage
    /// `pages` pages in a row added nothing new while the server still named a next key.
    case noProgress(pages: Int)
    /// A page named a key the list already used: following it would loop.
    case repeatedKey
    /// `cancel()` stopped the load; loading the next page asks for it again.
    case cancelled
    /// The load failed; ``PagingError/isRetryable`` says whether `retry()` can help.
    case failed(PagingError<Failure>)
}

extension StopReason: Equatable where Failure: Equatable {}
