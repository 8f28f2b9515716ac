import Reactive

extension PageSource where Key == PageNumberKey {
    /// Page-number paging: numbered pages of `size` items from `firstPage` on.
    ///
    /// The list ends at an empty page, when the page count is reached (`page - firstPage + 1 >=
    /// pageCount`), or when the items loaded reach the item count, whichever the response reports.
    /// Each page's response is its metadata. The page before page `n` is `n - 1`, down to `firstPage`;
    /// to open a list at page `n`, pass `initialKey: PageNumberKey(page: n, itemsBefore: (n - firstPage)
    /// * pageSize)`.
    ///
    /// - Parameters:
    ///   - firstPage: The number of the first page: 0 or 1 for most servers.
    ///   - load: Requests page `page` of `size` items for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func pageNumber(
        firstPage: Int = 1,
        load: @escaping @Sendable (_ page: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSource where Metadata: NumberedPageResponse, Metadata.Item == Item {
        PageSource(
            firstKey: PageNumberKey(page: firstPage, itemsBefore: 0),
            load: { request in load(request.key.page, request.pageSize, request.query) },
            page: { response, request in numberedPage(response, for: request, firstPage: firstPage) }
        )
        .modeled(.pageNumber) { slot, pageSize in
            PageNumberKey(page: firstPage + slot / pageSize, itemsBefore: slot / pageSize * pageSize)
        }
    }

    /// The page of `response` for `request`: the next and previous page numbers and the end, per the
    /// page-number model (a pure function).
    @inlinable
    static func numberedPage(
        _ response: Metadata, for request: PageRequest<PageNumberKey, Query>, firstPage: Int
    ) -> Page<Item, PageNumberKey, Metadata> where Metadata: NumberedPageResponse, Metadata.Item == Item {
        let key = request.key
        let loaded = key.itemsBefore + response.items.count
        let lastByPages = response.pageCount.map { key.page - firstPage + 1 >= $0 } ?? false
        let lastByItems = response.itemCount.map { loaded >= $0 } ?? false
        let next = PageNumberKey(page: key.page + 1, itemsBefore: loaded)
        let previous =
            key.page > firstPage
            ? PageNumberKey(page: key.page - 1, itemsBefore: max(0, key.itemsBefore - request.pageSize)) : nil
        var page = Page(
            items: response.items, previousKey: previous, nextKey: lastByPages || lastByItems ? nil : next,
            total: response.itemCount, metadata: response)
        page.itemsBefore = key.itemsBefore
        return page
    }
}
