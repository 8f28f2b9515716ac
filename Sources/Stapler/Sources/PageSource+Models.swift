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
        PageSource(firstKey: PageNumberKey(page: firstPage, itemsBefore: 0)) { request, sink in
            let key = request.key
            return load(key.page, request.pageSize, request.query).start { event in
                sink.send(
                    event.paging { response in
                        let loaded = key.itemsBefore + response.items.count
                        let lastByPages = response.pageCount.map { key.page - firstPage + 1 >= $0 } ?? false
                        let lastByItems = response.itemCount.map { loaded >= $0 } ?? false
                        let next = PageNumberKey(page: key.page + 1, itemsBefore: loaded)
                        let previous =
                            key.page > firstPage
                            ? PageNumberKey(page: key.page - 1, itemsBefore: max(0, key.itemsBefore - request.pageSize))
                            : nil
                        return Page(
                            items: response.items, previousKey: previous,
                            nextKey: lastByPages || lastByItems ? nil : next, total: response.itemCount,
                            metadata: response)
                    })
            }
        }
    }
}

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
        PageSource(firstKey: nil) { request, sink in
            load(request.key, request.pageSize, request.query).start { event in
                sink.send(
                    event.paging { response in
                        Page(
                            items: response.items, previousKey: response.previousCursor.map { $0 },
                            nextKey: response.nextCursor.map { $0 }, metadata: response)
                    })
            }
        }
    }
}

extension PageSource where Key == Int {
    /// Paging by a page counter until the source says it is exhausted (TIPagination's model).
    ///
    /// The counter starts at 0 for every generation. The list ends at the exhausted page, or at an
    /// empty page. Each page's response is its metadata.
    ///
    /// - Parameter load: Requests page `index` (0, 1, ...) of `size` items for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func exhaustible(
        load: @escaping @Sendable (_ index: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSource where Metadata: ExhaustiblePageResponse, Metadata.Item == Item {
        PageSource(firstKey: 0) { request, sink in
            let index = request.key
            return load(index, request.pageSize, request.query).start { event in
                sink.send(
                    event.paging { response in
                        Page(items: response.items, nextKey: response.isExhausted ? nil : index + 1, metadata: response)
                    })
            }
        }
    }

    /// A list that is not paginated: one load gives every item, and the list ends there.
    ///
    /// - Parameter load: Loads every item for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func singleLoad(
        load: @escaping @Sendable (_ query: Query) -> SignalProducer<[Item], Failure>
    ) -> PageSource where Metadata == Void {
        PageSource(firstKey: 0) { request, sink in
            load(request.query).start { event in
                sink.send(event.paging { items in Page(items: items, nextKey: nil, total: items.count) })
            }
        }
    }
}
