/// What the paginator asks a page source for: one page, by key.
///
/// Every page model reduces to keys: an offset, a page number, a cursor token. The source turns the
/// request into a call to the backend and answers with a ``Page``.
public struct PageRequest<Key: Sendable, Query: Sendable>: Sendable {
    /// The key of the requested page (the first key for the first page).
    public let key: Key
    /// How many items the paginator asks for.
    public let pageSize: Int
    /// The query of the current generation, as given to `refresh(query:)`.
    public let query: Query
    /// The position of the page in the current generation.
    ///
    /// It counts from the page the generation opened with: 0 for the first page, 1, 2, ... for
    /// appended pages, -1, -2, ... for prepended pages.
    public let pageIndex: Int
    /// Where the page goes: the first page of a generation, or one more page at the top or the bottom.
    public let direction: PageDirection
    /// For a prepend, the key of the page the requested page must end before; `nil` otherwise.
    ///
    /// It is the current top page's key. An offset source uses it to ask for no row the list has.
    public let followingKey: Key?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - key: The key of the requested page.
    ///   - pageSize: How many items to ask for.
    ///   - query: The query of the generation.
    ///   - pageIndex: The position of the page from the generation's first page.
    ///   - direction: Where the page goes; by default, the refresh direction for index 0 and the bottom
    ///     otherwise.
    ///   - followingKey: For a prepend, the key of the page below it.
    @inlinable
    public init(
        key: Key, pageSize: Int, query: Query, pageIndex: Int, direction: PageDirection? = nil,
        followingKey: Key? = nil
    ) {
        self.key = key
        self.pageSize = pageSize
        self.query = query
        self.pageIndex = pageIndex
        self.direction = direction ?? (pageIndex == 0 ? .refresh : pageIndex < 0 ? .prepend : .append)
        self.followingKey = followingKey
    }
}

extension PageRequest: Equatable where Key: Equatable, Query: Equatable {}
