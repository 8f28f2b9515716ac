import Reactive
import Stapler

// The subjects of the page models: each turns a model's response load into pages by the rules the model
// documents (its keys, its end, its total), so a check drives the load closure an app passes to the model.

extension PageSourceUnderTest where Key == Int {
    /// The subject of an offset load (`PageSource.offset(load:)`): keys are offsets, the previous key
    /// of a page at `o` is `o - pageSize` (at least 0, none at 0), the next is `o` plus the items sent
    /// until the total is reached, and a prepend asks only for the rows before the page below it.
    ///
    /// - Parameters:
    ///   - openingKeys: The other offsets the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the load answers on, if any.
    ///   - id: The identity of an item.
    ///   - load: The load closure passed to the model.
    /// - Returns: The subject.
    public static func offset(
        openingAt openingKeys: [Int] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID,
        load: @escaping @Sendable (_ offset: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSourceUnderTest where Metadata: PaginatedResponse, Metadata.Item == Item {
        PageSourceUnderTest(
            firstKey: 0, openingAt: openingKeys, pageSize: pageSize, query: query, scheduler: scheduler, id: id
        ) { request in
            let offset = request.key
            let size = request.followingKey.map { $0 > offset ? min(request.pageSize, $0 - offset) : request.pageSize }
            return load(offset, size ?? request.pageSize, request.query).map { response in
                let loaded = offset + response.items.count
                let ends = response.total < 0 || loaded >= response.total
                var page = Page(
                    items: response.items, previousKey: offset > 0 ? max(0, offset - request.pageSize) : nil,
                    nextKey: ends ? nil : loaded, total: response.total, metadata: response)
                page.itemsBefore = offset
                return page
            }
        }
    }

    /// The subject of an exhaustible load (`PageSource.exhaustible(load:)`): page `i + 1` follows page
    /// `i` until a page says it is exhausted; no page comes before the first.
    ///
    /// - Parameters:
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the load answers on, if any.
    ///   - id: The identity of an item.
    ///   - load: The load closure passed to the model.
    /// - Returns: The subject.
    public static func exhaustible(
        pageSize: Int, query: Query, scheduler: TestScheduler? = nil, id: @escaping @Sendable (Item) -> ID,
        load: @escaping @Sendable (_ index: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSourceUnderTest where Metadata: ExhaustiblePageResponse, Metadata.Item == Item {
        PageSourceUnderTest(firstKey: 0, pageSize: pageSize, query: query, scheduler: scheduler, id: id) { request in
            load(request.key, request.pageSize, request.query).map { response in
                Page(items: response.items, nextKey: response.isExhausted ? nil : request.key + 1, metadata: response)
            }
        }
    }
}

extension PageSourceUnderTest where Key == PageNumberKey {
    /// The subject of a page-number load (`PageSource.pageNumber(firstPage:load:)`): page `n + 1` follows
    /// page `n` until the page count or the item count is reached, and page `n - 1` comes before it, down
    /// to `firstPage`.
    ///
    /// - Parameters:
    ///   - firstPage: The number of the first page.
    ///   - openingKeys: The other keys the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the load answers on, if any.
    ///   - id: The identity of an item.
    ///   - load: The load closure passed to the model.
    /// - Returns: The subject.
    public static func pageNumber(
        firstPage: Int = 1, openingAt openingKeys: [PageNumberKey] = [], pageSize: Int, query: Query,
        scheduler: TestScheduler? = nil, id: @escaping @Sendable (Item) -> ID,
        load: @escaping @Sendable (_ page: Int, _ size: Int, _ query: Query) -> SignalProducer<Metadata, Failure>
    ) -> PageSourceUnderTest where Metadata: NumberedPageResponse, Metadata.Item == Item {
        PageSourceUnderTest(
            firstKey: PageNumberKey(page: firstPage, itemsBefore: 0), openingAt: openingKeys, pageSize: pageSize,
            query: query, scheduler: scheduler, id: id
        ) { request in
            let key = request.key
            return load(key.page, request.pageSize, request.query).map { response in
                let loaded = key.itemsBefore + response.items.count
                let lastByPages = response.pageCount.map { key.page - firstPage + 1 >= $0 } ?? false
                let lastByItems = response.itemCount.map { loaded >= $0 } ?? false
                let previous =
                    key.page > firstPage
                    ? PageNumberKey(page: key.page - 1, itemsBefore: max(0, key.itemsBefore - request.pageSize)) : nil
                var page = Page(
                    items: response.items, previousKey: previous,
                    nextKey: lastByPages || lastByItems ? nil : PageNumberKey(page: key.page + 1, itemsBefore: loaded),
                    total: response.itemCount, metadata: response)
                page.itemsBefore = key.itemsBefore
                return page
            }
        }
    }
}

extension PageSourceUnderTest {
    /// The subject of a cursor load (`PageSource.cursor(load:)`): the first page has no cursor, and each
    /// response names the cursors of the pages after and before it.
    ///
    /// - Parameters:
    ///   - openingKeys: The other cursors the list may open at.
    ///   - pageSize: The page size of every request; at least 1.
    ///   - query: The query of every request.
    ///   - scheduler: The `TestScheduler` the load answers on, if any.
    ///   - id: The identity of an item.
    ///   - load: The load closure passed to the model.
    /// - Returns: The subject.
    public static func cursor(
        openingAt openingKeys: [Key] = [], pageSize: Int, query: Query, scheduler: TestScheduler? = nil,
        id: @escaping @Sendable (Item) -> ID,
        load:
            @escaping @Sendable (_ cursor: Metadata.Cursor?, _ size: Int, _ query: Query) -> SignalProducer<
                Metadata, Failure
            >
    ) -> PageSourceUnderTest where Metadata: CursorPageResponse, Key == Metadata.Cursor?, Metadata.Item == Item {
        PageSourceUnderTest(
            firstKey: nil, openingAt: openingKeys, pageSize: pageSize, query: query, scheduler: scheduler, id: id
        ) { request in
            load(request.key, request.pageSize, request.query).map { response in
                Page(
                    items: response.items, previousKey: response.previousCursor.map { $0 },
                    nextKey: response.nextCursor.map { $0 }, metadata: response)
            }
        }
    }
}
