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
    /// - Parameter load: Requests `size` items from `offset` for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func offset(
        load: @escaping @Sendable (_ offset: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSource where Metadata: PaginatedResponse, Metadata.Item == Item {
        PageSource(firstKey: 0) { request, sink in
            let offset = request.key
            return load(offset, request.pageSize, request.query).start { event in
                sink.send(event.paging { offsetPage($0, at: offset) })
            }
        }
    }

    /// The page for `response` at `offset`: next offset, end and total, per the offset model.
    @inlinable
    static func offsetPage(
        _ response: Metadata, at offset: Int
    ) -> Page<Item, Int, Metadata> where Metadata: PaginatedResponse, Metadata.Item == Item {
        let loaded = offset.addingReportingOverflow(response.items.count)
        let ends = loaded.overflow || response.total < 0 || loaded.partialValue >= response.total
        return Page(
            items: response.items, nextKey: ends ? nil : loaded.partialValue, total: response.total, metadata: response)
    }
}
