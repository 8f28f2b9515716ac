import Reactive

/// How a paginator pages: the page size, the prefetch distance, the memory bound, placeholders, the
/// policy, the cache of earlier queries, deduplication and the delivery scheduler, as one value.
///
/// Every option has a default, so a value names only what a list changes, and the same value can
/// create several paginators:
///
/// ```swift
/// let options = PagingOptions<Message, String?>(
///     pageSize: 30, deduplication: .byID, deliveringOn: QueueScheduler.main, queryCache: .last(3))
/// let inbox = Paginator(source: .cursor(load: api.messages), query: Folder.inbox, options: options)
/// let sent = Paginator(source: .cursor(load: api.messages), query: Folder.sent, options: options)
/// ```
///
/// What the types rule out cannot be written: a jump threshold exists only inside
/// ``Placeholders/jumping(threshold:)``, so "jump without placeholders" has no spelling. What they
/// cannot rule out is checked once, when a paginator is created with the options, and a programmer
/// error traps there with a message naming the option:
/// - `pageSize` below 1, or missing over a page model that needs one (every model but
///   `PageSource.singleLoad(load:)`);
/// - `prefetchDistance` below 0;
/// - `maxPages` too small for one page and both prefetch windows
///   (`maxPages * pageSize >= pageSize + 2 * prefetchDistance`);
/// - `jumpThreshold` (``Placeholders/jumping(threshold:)``) below 0, or over a source that cannot compute
///   the key of a position (a cursor);
/// - `queryCache` over a query type that is not `Hashable` (queries are told apart by `==` and their
///   hash).
public struct PagingOptions<Item: Sendable, Key: Hashable & Sendable>: Sendable {
    /// How many items to ask for per page; `nil` (the default) only over a single load, which asks for
    /// no page size.
    public var pageSize: Int?
    /// How many rows from either end ``Paginator/preload(index:)`` starts a page at that end: 0 loads
    /// when the last (or first) row is displayed; `nil` (the default) means `pageSize / 2`.
    public var prefetchDistance: Int?
    /// How an item already loaded is recognised, to drop it from later pages; `nil` (the default) keeps
    /// every item.
    ///
    /// Repeats within a page are dropped too; the next key still counts what the server sent.
    public var deduplication: Deduplication<Item>?
    /// When given, every notification is delivered on it, in order, and every property takes its new
    /// value there, together with its notification; `nil` (the default) notifies on the thread that
    /// caused the change (the caller's, or the thread a response arrived on).
    ///
    /// With `QueueScheduler.main`, a user interface reads and hears every change on the main queue and
    /// never sees a value ahead of its notification. Methods may still be called from any thread.
    public var deliveryScheduler: (any Scheduler)?
    /// Timeouts, the cap on pages that add nothing, automatic retries, and the clock of the cache's
    /// maximum age; ``PagingPolicy/default`` by default.
    public var policy: PagingPolicy
    /// When given, the most pages the list keeps; `nil` (the default) keeps every page.
    ///
    /// After a page is applied (or a preload moves the row shown), whole pages are dropped at the end
    /// farther from the row last passed to ``Paginator/preload(index:)``, never so close to it that its
    /// next preload would load the page again, and never while fewer than three are loaded (so one page
    /// more may stay until the row moves on). Scrolling back reloads a dropped page with the key it was
    /// loaded with.
    public var maxPages: Int?
    /// Whether ``Paginator/slots`` shows placeholders for the rows not loaded, and whether a preload far
    /// from the loaded rows jumps there; ``Placeholders/off`` by default.
    public var placeholders: Placeholders
    /// How many earlier queries' lists are kept, and for how long; `nil` (the default) keeps none.
    ///
    /// Going back to a kept query shows its list at once, stale, and revalidates it; see ``QueryCache``.
    public var queryCache: QueryCache<Key>?
    /// How many pages a new list loads before it shows any, published in one update once every request
    /// answered; 1 (the default) loads one page.
    ///
    /// It applies to every load of a first page (the first load, ``RefreshMode/restart``,
    /// ``RefreshMode/open(at:)``, a query change). Over offsets, and over a cursor API whose load takes a
    /// size, it is one request for `initialPages × pageSize` rows, and the next page's key comes from what
    /// came back (offset plus the rows received; the response's cursor). Over page numbers, whose pages
    /// would be renumbered by a larger size, it is `initialPages` requests of the normal size, at most
    /// ``maxConcurrentRequests`` at once. Any other source loads the pages one after another. The first
    /// pages that came in are published; when page `i` fails, the pages before it are, and page `i` is a
    /// failed next page that ``Paginator/retry()-1n6nq`` asks for again (a first page that fails is a
    /// failed refresh). A refresh or a query change meanwhile supersedes every request of it.
    public var initialPages: Int
    /// How many requests a load of several pages over page numbers sends at once (``initialPages``);
    /// 4 by default.
    public var maxConcurrentRequests: Int

    /// Creates options; each parameter defaults to the option's default.
    ///
    /// - Parameters:
    ///   - pageSize: How many items to ask for per page; see ``pageSize``.
    ///   - prefetchDistance: How close to either end a preload starts a page there; see
    ///     ``prefetchDistance``.
    ///   - deduplication: How an item already loaded is recognised; see ``deduplication``.
    ///   - scheduler: The scheduler every notification is delivered on; see ``deliveryScheduler``.
    ///   - policy: Timeouts, the cap on pages that add nothing, and automatic retries; see ``policy``.
    ///   - maxPages: The most pages the list keeps; see ``maxPages``.
    ///   - placeholders: Placeholders and jumps; see ``placeholders``.
    ///   - queryCache: The cache of earlier queries' lists; see ``queryCache``.
    ///   - initialPages: How many pages a new list loads before it shows any (at least 1; a programmer error
    ///     traps, naming `initialPages`); see ``initialPages``.
    ///   - maxConcurrentRequests: How many of them over page numbers load at once (at least 1; a
    ///     programmer error traps, naming `maxConcurrentRequests`); see ``maxConcurrentRequests``.
    public init(
        pageSize: Int? = nil,
        prefetchDistance: Int? = nil,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        policy: PagingPolicy = .default,
        maxPages: Int? = nil,
        placeholders: Placeholders = .off,
        queryCache: QueryCache<Key>? = nil,
        initialPages: Int = 1,
        maxConcurrentRequests: Int = 4
    ) {
        self.pageSize = pageSize
        self.prefetchDistance = prefetchDistance
        self.deduplication = deduplication
        deliveryScheduler = scheduler
        self.policy = policy
        self.maxPages = maxPages
        self.placeholders = placeholders
        self.queryCache = queryCache
        self.initialPages = initialPages
        self.maxConcurrentRequests = maxConcurrentRequests
    }
}
