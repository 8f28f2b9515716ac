import Reactive

/// Options checked against a paginator's source and query, in the form the engine takes: the one place
/// where a programmer error in ``PagingOptions`` traps.
struct ResolvedOptions<Item: Sendable, Key: Hashable & Sendable, Query: Sendable> {
    let pageSize: Int
    let prefetchDistance: Int
    let bound: MemoryBound?
    let placeholders: Bool
    let jump: (threshold: Int, key: @Sendable (Int, Int) -> Key)?
    let queryCache: (configuration: QueryCache<Key>, key: @Sendable (Query) -> AnyHashable)?
    let identities: ItemIdentities<Item>?
    let deliveryScheduler: (any Scheduler)?
    let policy: PagingPolicy
    let initialPages: (count: Int, maxConcurrent: Int)

    /// Checks `options` for a paginator over `source`; each failed check traps, naming the option.
    init<Metadata, Failure>(
        _ options: PagingOptions<Item, Key>, source: PageSource<Item, Key, Query, Metadata, Failure>
    ) {
        guard let pageSize = options.pageSize ?? (source.ignoresPageSize ? 1 : nil) else {
            fatalError("Paginator: pageSize is required for this page model (only a single load needs none)")
        }
        guard pageSize >= 1 else {
            fatalError("Paginator: pageSize must be at least 1, got \(pageSize)")
        }
        let distance = options.prefetchDistance ?? pageSize / 2
        guard distance >= 0 else {
            fatalError("Paginator: prefetchDistance must not be negative, got \(distance)")
        }
        if let maxPages = options.maxPages, maxPages < 1 || maxPages * pageSize < pageSize + 2 * distance {
            fatalError(
                "Paginator: maxPages must hold one page and both prefetch windows (maxPages * pageSize >= "
                    + "pageSize + 2 * prefetchDistance), got maxPages \(maxPages), pageSize \(pageSize), "
                    + "prefetchDistance \(distance)")
        }
        guard options.initialPages >= 1 else {
            fatalError("Paginator: initialPages must be at least 1, got \(options.initialPages)")
        }
        guard options.maxConcurrentRequests >= 1 else {
            fatalError("Paginator: maxConcurrentRequests must be at least 1, got \(options.maxConcurrentRequests)")
        }
        var jump: (threshold: Int, key: @Sendable (Int, Int) -> Key)?
        if let threshold = options.placeholders.jumpThreshold {
            guard let slotKey = source.slotKey, threshold >= 0 else {
                fatalError(
                    "Paginator: jumpThreshold (placeholders: .jumping(threshold:)) must be at least 0 over a page "
                        + "model that can compute the key of a position (offset or page number; a cursor cannot "
                        + "jump), got jumpThreshold \(threshold) over the \(source.model.rawValue) source")
            }
            jump = (threshold, slotKey)
        }
        var queryCache: (configuration: QueryCache<Key>, key: @Sendable (Query) -> AnyHashable)?
        if let configuration = options.queryCache {
            guard let key = Self.cacheKey(Query.self) else {
                fatalError(
                    "Paginator: queryCache needs a Hashable query (the cache tells queries apart by == and their "
                        + "hash), got a query of type \(Query.self)")
            }
            queryCache = (configuration, key)
        }
        self.pageSize = pageSize
        prefetchDistance = distance
        bound = options.maxPages.map { MemoryBound(maxPages: $0, keptDistance: distance) }
        placeholders = options.placeholders.isShown
        self.jump = jump
        self.queryCache = queryCache
        identities = options.deduplication?.identities
        deliveryScheduler = options.deliveryScheduler
        policy = options.policy
        initialPages = (options.initialPages, options.maxConcurrentRequests)
    }

    /// The identity of a query in the cache, when `Query` is `Hashable` (checked at run time: the
    /// paginator's initializers take any query).
    private static func cacheKey(_ type: Query.Type) -> (@Sendable (Query) -> AnyHashable)? {
        guard type is any Hashable.Type else { return nil }
        return { query in
            let hashable = Query.self as! any Hashable.Type
            return hashed(query, as: hashable)
        }
    }

    /// `query` hashed as `H`, the `Hashable` type `Query` is (the caller checked it), so the cast cannot
    /// fail.
    private static func hashed<H: Hashable>(_ query: Query, as _: H.Type) -> AnyHashable {
        AnyHashable(query as! H)
    }
}
