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
/// A list is observed while the paginator shows it; a kept list is observed by nobody. With
/// ``evictUnobservedAfter``, a kept list is also evicted that long after it stopped being shown, on the
/// paginator policy's clock. Going back to its query and its eviction are two inputs of the paginator's one
/// state lock: the list comes back whole if the switch comes first, and the query loads anew if the
/// eviction does; never half of it.
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
    /// How long a kept list stays after it stopped being shown, or `nil` (the default) for as long as the
    /// capacity allows.
    ///
    /// The time runs on the paginator policy's clock (``PagingPolicy/clock``), from the switch away from
    /// the list's query; going back to it before then shows it and stops the time, and leaving it again
    /// starts the time anew. An evicted list is freed at once.
    public let evictUnobservedAfter: Duration?

    /// Keeps the lists of the last `capacity` queries besides the one shown.
    ///
    /// - Parameters:
    ///   - capacity: How many lists to keep; at least 1 (a programmer error traps, naming `capacity`).
    ///   - maxAge: How old a kept list may be and still be shown, on the paginator policy's clock;
    ///     `nil` for no limit.
    ///   - revalidation: How a list shown from the cache reloads; by default from its first page.
    ///   - evictUnobservedAfter: How long a kept list stays after it stopped being shown; `nil` for as long
    ///     as the capacity allows. Negative is a programmer error that traps, naming `evictUnobservedAfter`.
    /// - Returns: The cache configuration.
    public static func last(
        _ capacity: Int, maxAge: Duration? = nil, revalidation: RefreshMode<Key> = .restart,
        evictUnobservedAfter: Duration? = nil
    ) -> QueryCache {
        guard capacity >= 1 else { fatalError("QueryCache: capacity must be at least 1, got \(capacity)") }
        guard (evictUnobservedAfter ?? .zero) >= .zero else {
            fatalError("QueryCache: evictUnobservedAfter must not be negative, got \(evictUnobservedAfter ?? .zero)")
        }
        return QueryCache(
            capacity: capacity, maxAge: maxAge, revalidation: revalidation, evictUnobservedAfter: evictUnobservedAfter)
    }

    @inlinable
    init(capacity: Int, maxAge: Duration?, revalidation: RefreshMode<Key>, evictUnobservedAfter: Duration?) {
        self.capacity = capacity
        self.maxAge = maxAge
        self.revalidation = revalidation
        self.evictUnobservedAfter = evictUnobservedAfter
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
