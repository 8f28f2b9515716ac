// The short initializers of the most common call, a source and a page size, each forwarding to the
// initializer of its kind with `PagingOptions(pageSize:)`:
//
//     Paginator(source: .offset(load: api.rows), pageSize: 20)
//     // is Paginator(source: .offset(load: api.rows), options: PagingOptions(pageSize: 20))

extension Paginator {
    /// Creates a paginator with default options but the page size; see
    /// ``init(source:query:initialKey:options:)``.
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - pageSize: How many items to ask for per page; at least 1 (a programmer error traps, naming
    ///     `pageSize`). Required, except over a single load (`PageSource.singleLoad(load:)`), which asks
    ///     for no page size.
    ///   - query: The query of the first generation.
    ///   - initialKey: The key of the page the list opens at; the source's first key when `nil`.
    public convenience init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int? = nil,
        query: Query,
        initialKey: Key? = nil
    ) {
        self.init(source: source, query: query, initialKey: initialKey, options: PagingOptions(pageSize: pageSize))
    }
}

extension Paginator where Query == Void {
    /// Creates a paginator whose source takes no query, with default options but the page size; see
    /// ``init(source:initialKey:options:)``.
    ///
    /// - Parameters:
    ///   - source: The page model and the load closure.
    ///   - pageSize: How many items to ask for per page; at least 1 (a programmer error traps, naming
    ///     `pageSize`). Required, except over a single load (`PageSource.singleLoad(load:)`).
    ///   - initialKey: The key of the page the list opens at; the source's first key when `nil`.
    public convenience init(
        source: PageSource<Item, Key, Void, Metadata, Failure>,
        pageSize: Int? = nil,
        initialKey: Key? = nil
    ) {
        self.init(source: source, query: (), initialKey: initialKey, options: PagingOptions(pageSize: pageSize))
    }
}
