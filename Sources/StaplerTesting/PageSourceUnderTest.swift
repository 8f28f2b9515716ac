import Reactive
import Stapler

/// A page source in the load-closure form (`PageSource(firstKey:loadPage:)`), with what a conformance
/// check needs to drive it: the keys to open at, the page size, the query and each item's identity.
///
/// ```swift
/// let subject = PageSourceUnderTest(firstKey: 0, openingAt: [50, 90], pageSize: 10, id: \.id) { request in
///     api.page(request)   // the closure your PageSource is made with
/// }
/// try PageSourceConformance.check(subject)
/// ```
public struct PageSourceUnderTest<
    Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error,
    ID: Hashable & Sendable
>: Sendable {
    /// The key of the first page.
    public let firstKey: Key
    /// The other keys the list may open at (the middle, the last page...).
    public let openingKeys: [Key]
    /// The page size of every request.
    public let pageSize: Int
    /// The query of every request.
    public let query: Query
    /// Runs the work of a source that answers on it, when the check waits for an answer.
    public let scheduler: TestScheduler?
    /// The identity of an item: each must come exactly once.
    let id: @Sendable (Item) -> ID
    /// The load under test.
    let load: @Sendable (PageRequest<Key, Query>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>

    /// Creates the subject of a check.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page (the source's `firstKey`).
    ///   - openingKeys: The other keys the list may open at.
    ///   - pageSize: The page size of every request; at least 1 (a programmer error traps, naming
    ///     `pageSize`).
    ///   - query: The query of every request.
    ///   - scheduler: The scheduler the source answers on, if it is a `TestScheduler`: the check runs it
    ///     while it waits for an answer. Without one, the check waits for an answer on another thread.
    ///   - id: The identity of an item.
    ///   - load: The load closure of the source.
    public init(
        firstKey: Key, openingAt openingKeys: [Key] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID,
        load: @escaping @Sendable (PageRequest<Key, Query>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>
    ) {
        guard pageSize >= 1 else { fatalError("PageSourceUnderTest: pageSize must be at least 1, got \(pageSize)") }
        self.firstKey = firstKey
        self.openingKeys = openingKeys
        self.pageSize = pageSize
        self.query = query
        self.scheduler = scheduler
        self.id = id
        self.load = load
    }
}

extension PageSourceUnderTest where Query == Void {
    /// Creates the subject of a check for a source without a query.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - openingKeys: The other keys the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    ///   - id: The identity of an item.
    ///   - load: The load closure of the source.
    public init(
        firstKey: Key, openingAt openingKeys: [Key] = [], pageSize: Int, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID,
        load: @escaping @Sendable (PageRequest<Key, Void>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>
    ) {
        self.init(
            firstKey: firstKey, openingAt: openingKeys, pageSize: pageSize, query: (), scheduler: scheduler, id: id,
            load: load)
    }
}

extension PageSourceUnderTest where ID == Item, Item: Hashable {
    /// Creates the subject of a check whose items are their own identity.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - openingKeys: The other keys the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    ///   - load: The load closure of the source.
    public init(
        firstKey: Key, openingAt openingKeys: [Key] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil,
        load: @escaping @Sendable (PageRequest<Key, Query>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>
    ) {
        self.init(
            firstKey: firstKey, openingAt: openingKeys, pageSize: pageSize, query: query, scheduler: scheduler,
            id: { $0 }, load: load)
    }
}

extension PageSourceUnderTest where Query == Void, ID == Item, Item: Hashable {
    /// Creates the subject of a check for a source without a query, whose items are their own identity.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - openingKeys: The other keys the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    ///   - load: The load closure of the source.
    public init(
        firstKey: Key, openingAt openingKeys: [Key] = [], pageSize: Int, scheduler: TestScheduler? = nil,
        load: @escaping @Sendable (PageRequest<Key, Void>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>
    ) {
        self.init(
            firstKey: firstKey, openingAt: openingKeys, pageSize: pageSize, query: (), scheduler: scheduler,
            id: { $0 }, load: load)
    }
}
