import Reactive

extension PageSource where Key == Int {
    /// Offset + total paging: the key is the offset of the page's first item.
    ///
    /// The next offset is the previous one plus the number of items the server sent (not the page
    /// size, and before any deduplication), so a server that caps or stretches pages never makes the
    /// paginator skip or repeat items. The list ends when the loaded count reaches the latest total or a
    /// page is empty, whichever comes first; a total that shrinks below what is loaded ends the list and
    /// removes nothing. A negative total is a ``PagingError/invalidTotal(_:)`` error.
    ///
    /// Offset paging cannot see items that the server deleted before the current offset (they shift
    /// later items back, which are then skipped); prefer a cursor model when the list changes while
    /// it is paged.
    ///
    /// Each page's response is its metadata.
    ///
    /// The previous key of a page at offset `o` is `o - pageSize`, clamped at 0 (the page at 0 has
    /// none), so a list opened mid-way (`initialKey: 500`) pages up as well as down; a prepend asks only
    /// for the rows before the top page (`size` is cut so that no loaded row is asked for twice).
    ///
    /// - Parameter load: Requests `size` items from `offset` for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func offset(
        load: @escaping @Sendable (_ offset: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSource where Metadata: PaginatedResponse, Metadata.Item == Item {
        PageSource(
            firstKey: 0, load: { request in load(request.key, offsetRequestSize(request), request.query) },
            page: offsetPage
        )
        .modeled(.offset, slotKey: { slot, pageSize in slot / pageSize * pageSize })
    }

    /// How many items the offset model asks for: the page size, cut so that a page loaded above the top
    /// page asks for no row the list has.
    @inlinable
    static func offsetRequestSize(_ request: PageRequest<Int, Query>) -> Int {
        guard let following = request.followingKey, following > request.key else { return request.pageSize }
        return min(request.pageSize, following - request.key)
    }

    /// The page of `response` for `request`: previous and next offsets, end and total, per the offset
    /// model (a pure function).
    @inlinable
    static func offsetPage(
        _ response: Metadata, for request: PageRequest<Int, Query>
    ) -> Page<Item, Int, Metadata> where Metadata: PaginatedResponse, Metadata.Item == Item {
        let offset = request.key
        let pageSize = request.pageSize
        let loaded = offset.addingReportingOverflow(response.items.count)
        let ends = loaded.overflow || response.total < 0 || loaded.partialValue >= response.total
        let previous = offset > 0 ? max(0, offset - pageSize) : nil
        var page = Page(
            items: response.items, previousKey: previous, nextKey: ends ? nil : loaded.partialValue,
            total: response.total, metadata: response)
        page.itemsBefore = offset
        return page
    }
}
