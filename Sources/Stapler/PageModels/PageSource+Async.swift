import Reactive

extension PageSource {
    /// Creates a source from its first key and an `async` load; superseding a load cancels its task.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - loadPage: Answers a request with one page.
    @inlinable
    public init(
        firstKey: Key,
        loadPage: @escaping @Sendable (PageRequest<Key, Query>) async throws(Failure) -> Page<Item, Key, Metadata>
    ) {
        self.init(firstKey: firstKey) { (request: PageRequest<Key, Query>) in
            SignalProducer<Page<Item, Key, Metadata>, Failure> { () async throws(Failure) in
                try await loadPage(request)
            }
        }
    }
}

extension PageSource where Key == Int {
    /// Offset + total paging over an `async` backend; see `offset(load:)`.
    ///
    /// - Parameter load: Requests `size` items from `offset` for `query`; its task is cancelled when the
    ///   load is superseded.
    /// - Returns: The page source.
    @inlinable
    public static func offset(
        load: @escaping @Sendable (_ offset: Int, _ size: Int, _ query: Query) async throws(Failure) -> Metadata
    ) -> PageSource where Metadata: PaginatedResponse, Metadata.Item == Item {
        offset { offset, size, query in
            SignalProducer { () async throws(Failure) in try await load(offset, size, query) }
        }
    }

    /// Exhaustible paging over an `async` backend; see `exhaustible(load:)`.
    ///
    /// - Parameter load: Requests page `index` of `size` items for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func exhaustible(
        load: @escaping @Sendable (_ index: Int, _ size: Int, _ query: Query) async throws(Failure) -> Metadata
    ) -> PageSource where Metadata: ExhaustiblePageResponse, Metadata.Item == Item {
        exhaustible { index, size, query in
            SignalProducer { () async throws(Failure) in try await load(index, size, query) }
        }
    }

    /// A single `async` load of every item; see `singleLoad(load:)`.
    ///
    /// - Parameter load: Loads every item for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func singleLoad(
        load: @escaping @Sendable (_ query: Query) async throws(Failure) -> [Item]
    ) -> PageSource where Metadata == Void {
        singleLoad { query in
            SignalProducer { () async throws(Failure) in try await load(query) }
        }
    }
}

extension PageSource where Key == PageNumberKey {
    /// Page-number paging over an `async` backend; see `pageNumber(firstPage:load:)`.
    ///
    /// - Parameters:
    ///   - firstPage: The number of the first page.
    ///   - load: Requests page `page` of `size` items for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func pageNumber(
        firstPage: Int = 1,
        load: @escaping @Sendable (_ page: Int, _ size: Int, _ query: Query) async throws(Failure) -> Metadata
    ) -> PageSource where Metadata: NumberedPageResponse, Metadata.Item == Item {
        pageNumber(firstPage: firstPage) { page, size, query in
            SignalProducer { () async throws(Failure) in try await load(page, size, query) }
        }
    }
}

extension PageSource {
    /// Cursor paging over an `async` backend; see `cursor(load:)`.
    ///
    /// - Parameter load: Requests `size` items after `cursor` for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func cursor(
        load:
            @escaping @Sendable (_ cursor: Metadata.Cursor?, _ size: Int, _ query: Query) async throws(Failure) ->
            Metadata
    ) -> PageSource where Metadata: CursorPageResponse, Key == Metadata.Cursor?, Metadata.Item == Item {
        cursor { cursor, size, query in
            SignalProducer { () async throws(Failure) in try await load(cursor, size, query) }
        }
    }
}
