import Reactive

extension PageSource where Key == Int {
    /// Paging by a page counter until the source says it is exhausted (TIPagination's model).
    ///
    /// The counter starts at 0 for every generation. The list ends at the exhausted page, or at an
    /// empty page. Each page's response is its metadata. It pages one way: no page comes before the
    /// first.
    ///
    /// - Parameter load: Requests page `index` (0, 1, ...) of `size` items for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func exhaustible(
        load: @escaping @Sendable (_ index: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSource where Metadata: ExhaustiblePageResponse, Metadata.Item == Item {
        PageSource(
            firstKey: 0, load: { request in load(request.key, request.pageSize, request.query) },
            page: { response, request in
                Page(items: response.items, nextKey: response.isExhausted ? nil : request.key + 1, metadata: response)
            }
        )
        .modeled(.exhaustible)
    }

    /// A list that is not paginated: one load gives every item, and the list ends there, at both ends.
    ///
    /// A paginator over it needs no `pageSize:`.
    ///
    /// - Parameter load: Loads every item for `query`.
    /// - Returns: The page source.
    @inlinable
    public static func singleLoad(
        load: @escaping @Sendable (_ query: Query) -> SignalProducer<[Item], Failure>
    ) -> PageSource where Metadata == Void {
        var source = PageSource(
            firstKey: 0, load: { request in load(request.query) },
            page: { items, _ in Page(items: items, nextKey: nil, total: items.count) })
        source.ignoresPageSize = true
        return source.modeled(.singleLoad)
    }
}
