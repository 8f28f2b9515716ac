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
    /// The position of the page in the current generation: 0 for the first page.
    public let pageIndex: Int

    /// Creates a request.
    @inlinable
    public init(key: Key, pageSize: Int, query: Query, pageIndex: Int) {
        self.key = key
        self.pageSize = pageSize
        self.query = query
        self.pageIndex = pageIndex
    }
}

extension PageRequest: Equatable where Key: Equatable, Query: Equatable {}
