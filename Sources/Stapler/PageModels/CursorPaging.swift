import Reactive

extension PageSource {
    /// Cursor (token) paging: the first page has no cursor, each page names the next one.
    ///
    /// The list ends when a page has no next cursor, or is empty. A next cursor that was already used
    /// in this generation is a ``PagingError/repeatedKey`` error, never a loop. Each page's response is
    /// its metadata. A response's ``CursorPageResponse/previousCursor`` (if the API gives one) is the key
    /// of the page before it, so a list opened at a cursor pages both ways.
    ///
    /// - Parameter load: Requests `size` items after `cursor` (`nil` for the first page) for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func cursor(
        load:
            @escaping @Sendable (_ cursor: Metadata.Cursor?, _ size: Int, _ query: Query) -> SignalProducer<
                Metadata, Failure
            >
    ) -> PageSource where Metadata: CursorPageResponse, Key == Metadata.Cursor?, Metadata.Item == Item {
        PageSource(
            firstKey: nil, load: { request in load(request.key, request.pageSize, request.query) },
            page: { response, _ in cursorPage(response) }
        )
        .modeled(.cursor)
    }

    /// The page of `response`: its cursors are its keys (a pure function).
    @inlinable
    static func cursorPage(
        _ response: Metadata
    ) -> Page<Item, Key, Metadata> where Metadata: CursorPageResponse, Key == Metadata.Cursor?, Metadata.Item == Item {
        Page(
            items: response.items, previousKey: response.previousCursor.map { $0 },
            nextKey: response.nextCursor.map { $0 }, metadata: response)
    }
}
