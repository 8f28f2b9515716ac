import Reactive
import Stapler

/// An app's page source, with what a conformance check needs to drive it: the keys to open at, the page
/// size, the query and each item's identity.
///
/// The check runs the source itself, through the code a paginator runs: a source made with a page model
/// (`PageSource.offset(load:)`, `pageNumber(firstPage:load:)`, `cursor(load:)`, `exhaustible(load:)`,
/// `singleLoad(load:)`) is checked with that model's own keys, ends and request sizes, and a source made
/// with `PageSource(firstKey:loadPage:)` with the pages its closure builds.
///
/// ```swift
/// let users = PageSource<User, Int, Void, UsersResponse, APIError>.offset { offset, size, _ in
///     api.users(offset: offset, size: size)
/// }
/// let subject = PageSourceUnderTest(source: users, openingAtPositions: [50, 90], pageSize: 10, id: { $0.id })
/// try PageSourceConformance.check(subject)
/// ```
///
/// A list opens at a key: for an offset source the key is the offset, for a page-number source a
/// `PageNumberKey`, for a cursor source the cursor. Offsets and page numbers can also be named by the
/// position of an item (`openingAtPositions:`), which the source's model turns into the key of the page
/// holding it, as a paginator's jump does.
public struct PageSourceUnderTest<
    Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error,
    ID: Hashable & Sendable
>: Sendable {
    /// The source under test.
    public let source: PageSource<Item, Key, Query, Metadata, Failure>
    /// The other keys the list may open at (the middle, the last page...), the keys of the positions
    /// after the keys given as such.
    public let openingKeys: [Key]
    /// The page size of every request.
    public let pageSize: Int
    /// The query of every request.
    public let query: Query
    /// Runs the work of a source that answers on it, when the check waits for an answer.
    public let scheduler: TestScheduler?
    /// The identity of an item: each must come exactly once.
    let id: @Sendable (Item) -> ID

    /// The key of the first page: the source's own.
    public var firstKey: Key { source.firstKey }

    /// Creates the subject of a check.
    ///
    /// - Parameters:
    ///   - source: The source under test, as the app builds it.
    ///   - openingKeys: The other keys the list may open at.
    ///   - positions: Positions of items the list may open at, each opened at the key of the page that
    ///     holds it, for pages of `pageSize`. Only a source that computes such keys (offsets, page
    ///     numbers) takes positions; for another, a programmer error traps, naming `openingAtPositions`.
    ///   - pageSize: The page size of every request; at least 1 (a programmer error traps, naming
    ///     `pageSize`). A single-load source may answer with more items.
    ///   - query: The query of every request.
    ///   - scheduler: The scheduler the source answers on, if it is a `TestScheduler`: the check runs it
    ///     while it waits for an answer. Without one, the check waits for an answer on another thread.
    ///   - id: The identity of an item.
    public init(
        source: PageSource<Item, Key, Query, Metadata, Failure>, openingAt openingKeys: [Key] = [],
        openingAtPositions positions: [Int] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID
    ) {
        guard pageSize >= 1 else { fatalError("PageSourceUnderTest: pageSize must be at least 1, got \(pageSize)") }
        if let negative = positions.first(where: { $0 < 0 }) {
            fatalError("PageSourceUnderTest: openingAtPositions must not be negative, got \(negative)")
        }
        var keys = openingKeys
        if !positions.isEmpty {
            guard let slotKey = source.slotKey else {
                fatalError(
                    "PageSourceUnderTest: openingAtPositions needs a source whose page model computes the key of a "
                        + "position (offset, page number); pass the keys to open at with openingAt instead")
            }
            keys += positions.map { slotKey($0, pageSize) }
        }
        self.source = source
        self.openingKeys = keys
        self.pageSize = pageSize
        self.query = query
        self.scheduler = scheduler
        self.id = id
    }
}

extension PageSourceUnderTest where Query == Void {
    /// Creates the subject of a check for a source without a query.
    ///
    /// - Parameters:
    ///   - source: The source under test.
    ///   - openingKeys: The other keys the list may open at.
    ///   - positions: Positions of items the list may open at (offset and page-number sources only).
    ///   - pageSize: The page size of every request; at least 1.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    ///   - id: The identity of an item.
    public init(
        source: PageSource<Item, Key, Void, Metadata, Failure>, openingAt openingKeys: [Key] = [],
        openingAtPositions positions: [Int] = [], pageSize: Int, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID
    ) {
        self.init(
            source: source, openingAt: openingKeys, openingAtPositions: positions, pageSize: pageSize, query: (),
            scheduler: scheduler, id: id)
    }
}

extension PageSourceUnderTest where ID == Item, Item: Hashable {
    /// Creates the subject of a check whose items are their own identity.
    ///
    /// - Parameters:
    ///   - source: The source under test.
    ///   - openingKeys: The other keys the list may open at.
    ///   - positions: Positions of items the list may open at (offset and page-number sources only).
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    public init(
        source: PageSource<Item, Key, Query, Metadata, Failure>, openingAt openingKeys: [Key] = [],
        openingAtPositions positions: [Int] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil
    ) {
        self.init(
            source: source, openingAt: openingKeys, openingAtPositions: positions, pageSize: pageSize, query: query,
            scheduler: scheduler, id: { $0 })
    }
}

extension PageSourceUnderTest where Query == Void, ID == Item, Item: Hashable {
    /// Creates the subject of a check for a source without a query, whose items are their own identity.
    ///
    /// - Parameters:
    ///   - source: The source under test.
    ///   - openingKeys: The other keys the list may open at.
    ///   - positions: Positions of items the list may open at (offset and page-number sources only).
    ///   - pageSize: The page size of every request; at least 1.
    ///   - scheduler: The `TestScheduler` the source answers on, if any.
    public init(
        source: PageSource<Item, Key, Void, Metadata, Failure>, openingAt openingKeys: [Key] = [],
        openingAtPositions positions: [Int] = [], pageSize: Int, scheduler: TestScheduler? = nil
    ) {
        self.init(
            source: source, openingAt: openingKeys, openingAtPositions: positions, pageSize: pageSize, query: (),
            scheduler: scheduler, id: { $0 })
    }
}
