import Reactive

/// A cache of the page lists of the last queries a paginator showed (stale-while-revalidate); set it with
/// ``PagingOptions/queryCache``, over a `Hashable` query.
///
/// Going back to a cached query shows its list at once, in the same call and before any answer,
/// marked ``PagingSnapshot/isStale``, and revalidates it with ``revalidation``. An entry holds what
/// ``Paginator/savedState`` holds (pages, keys, ends, dropped pages, edits), never a load in flight;
/// an answer of an earlier visit of the same query is never applied (the revalidation is a new
/// generation). The list on screen is never evicted; the least recently shown go first, and an
/// evicted list is freed.
///
/// ```swift
/// let search = Paginator(
///     source: .cursor(load: api.search), query: "",
///     options: PagingOptions(pageSize: 20, queryCache: .last(3, maxAge: .seconds(300))))
/// ```
public struct QueryCache<Key: Hashable & Sendable>: Sendable {
    /// How many lists it keeps besides the one shown.
    public let capacity: Int
    /// How old a kept list may be and still be shown, or `nil` for no limit.
    ///
    /// An older list is dropped, and its query loads as if it was never cached.
    public let maxAge: Duration?
    /// How a list shown from the cache reloads.
    public let revalidation: RefreshMode<Key>

    /// Keeps the lists of the last `capacity` queries besides the one shown.
    ///
    /// - Parameters:
    ///   - capacity: How many lists to keep; at least 1 (a programmer error traps, naming `capacity`).
    ///   - maxAge: How old a kept list may be and still be shown, on the paginator policy's clock;
    ///     `nil` for no limit.
    ///   - revalidation: How a list shown from the cache reloads; by default from its first page.
    /// - Returns: The cache configuration.
    public static func last(
        _ capacity: Int, maxAge: Duration? = nil, revalidation: RefreshMode<Key> = .restart
    ) -> QueryCache {
        guard capacity >= 1 else { fatalError("QueryCache: capacity must be at least 1, got \(capacity)") }
        return QueryCache(capacity: capacity, maxAge: maxAge, revalidation: revalidation)
    }

    @inlinable
    init(capacity: Int, maxAge: Duration?, revalidation: RefreshMode<Key>) {
        self.capacity = capacity
        self.maxAge = maxAge
        self.revalidation = revalidation
    }
}

/// A switch to a query that the cache may hold: its identity, and the time on the policy's clock.
@usableFromInline
struct QueryVisit {
    @usableFromInline let key: AnyHashable
    @usableFromInline let now: SchedulerInstant

    @inlinable
    init(key: AnyHashable, now: SchedulerInstant) {
        self.key = key
        self.now = now
    }
}
