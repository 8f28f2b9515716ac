import Reactive
import Stapler

extension TestPageSource {
    /// An offset + total source (`PageSource.offset(load:)`): keys are item offsets, and every page
    /// reports the total and (through the model) the items before it.
    ///
    /// - Returns: The source; open it mid-list with `initialKey: server.initialOffset`.
    public func offset() -> PageSource<Item, Int, Query, TestOffsetResponse<Item>, TestSourceError> {
        .offset { offset, size, query in self.loadOffset(offset, size: size, query: query) }
    }

    /// The offset the offset source opens at: ``openAt``.
    public var initialOffset: Int { openAt }

    /// The fake's offset endpoint, for an app's own page source: `size` items from `offset`, and the total.
    ///
    /// It produces the next offset (`offset` plus the items sent) and the previous one (`offset` minus the
    /// page size, at least 0); any other offset but 0 and ``openAt`` is an unknown key.
    ///
    /// - Parameters:
    ///   - offset: The offset of the first item.
    ///   - size: How many items to send at most.
    ///   - query: The query of the request.
    /// - Returns: A producer of the response.
    public func loadOffset(
        _ offset: Int, size: Int, query: Query
    ) -> SignalProducer<TestOffsetResponse<Item>, TestSourceError> {
        let opening = openAt
        return producer {
            RequestDescription(
                key: "\(offset)", offset: offset, size: size, query: query, direction: nil,
                isOpening: offset == 0 || offset == opening)
        } respond: { state in
            let items = state.slice(from: offset, size: size)
            let described = String(describing: query)
            if offset + items.count < state.list.count {
                state.produce("\(offset + items.count)", .append, query: described)
            }
            if offset > 0 { state.produce("\(max(0, offset - max(state.pageSize, size)))", .prepend, query: described) }
            return TestOffsetResponse(items: items, total: state.list.count)
        }
    }

    /// A page-number source (`PageSource.pageNumber(firstPage:load:)`): page `n` holds the items from
    /// `(n - firstPage) * size`, and every page reports the item count and the page count.
    ///
    /// - Parameter firstPage: The number of the first page.
    /// - Returns: The source; open it mid-list with ``initialPageNumberKey(pageSize:firstPage:)``.
    public func pageNumber(
        firstPage: Int = 1
    ) -> PageSource<Item, PageNumberKey, Query, TestNumberedResponse<Item>, TestSourceError> {
        .pageNumber(firstPage: firstPage) { page, size, query in
            self.loadPage(page, size: size, firstPage: firstPage, query: query)
        }
    }

    /// The key of the page that holds item ``openAt``, for pages of `pageSize`.
    ///
    /// - Parameters:
    ///   - pageSize: The paginator's page size; at least 1 (a programmer error traps, naming `pageSize`).
    ///   - firstPage: The number of the first page.
    /// - Returns: The key to pass as `initialKey:`.
    public func initialPageNumberKey(pageSize: Int, firstPage: Int = 1) -> PageNumberKey {
        guard pageSize >= 1 else { fatalError("TestPageSource: pageSize must be at least 1, got \(pageSize)") }
        return PageNumberKey(page: firstPage + openAt / pageSize, itemsBefore: openAt / pageSize * pageSize)
    }

    /// The fake's page-number endpoint, for an app's own page source: page `page` of `size` items.
    ///
    /// It produces the page numbers next to each page it answers; any other page but the first and the
    /// one holding ``openAt`` is an unknown key.
    ///
    /// - Parameters:
    ///   - page: The page number.
    ///   - size: The page size; at least 1 (a programmer error traps, naming `size`).
    ///   - firstPage: The number of the first page.
    ///   - query: The query of the request.
    /// - Returns: A producer of the response.
    public func loadPage(
        _ page: Int, size: Int, firstPage: Int = 1, query: Query
    ) -> SignalProducer<TestNumberedResponse<Item>, TestSourceError> {
        guard size >= 1 else { fatalError("TestPageSource: size must be at least 1, got \(size)") }
        let opening = firstPage + openAt / size
        let offset = (page - firstPage) * size
        return producer {
            RequestDescription(
                key: "\(page)", offset: offset, size: size, query: query, direction: nil,
                isOpening: page == firstPage || page == opening)
        } respond: { state in
            let items = state.slice(from: offset, size: size)
            let total = state.list.count
            let described = String(describing: query)
            if offset + items.count < total { state.produce("\(page + 1)", .append, query: described) }
            if page > firstPage { state.produce("\(page - 1)", .prepend, query: described) }
            return TestNumberedResponse(items: items, itemCount: total, pageCount: (total + size - 1) / size)
        }
    }

    /// A cursor source (`PageSource.cursor(load:)`) with opaque cursors both ways.
    ///
    /// - Returns: The source; open it mid-list with `initialKey: server.initialCursor`.
    public func cursor() -> PageSource<Item, String?, Query, TestCursorResponse<Item>, TestSourceError> {
        .cursor { cursor, size, query in self.loadCursor(cursor, size: size, query: query) }
    }

    /// The cursor the cursor source opens at: `nil` (the top) when ``openAt`` is 0.
    public var initialCursor: String? { openAt == 0 ? nil : "c\(openAt)" }

    /// The fake's cursor endpoint, for an app's own page source: `size` items after `cursor`.
    ///
    /// A cursor is opaque: `nil` is the top, and each response names the cursors next to it. Cursors
    /// point at items, not offsets: rows inserted or removed with ``insertAtTop(_:)`` and
    /// ``removeFromTop(_:)`` move no cursor to another item. Any other cursor but the top and
    /// ``initialCursor`` is an unknown key.
    ///
    /// - Parameters:
    ///   - cursor: The cursor of the page, `nil` for the top.
    ///   - size: How many items to send at most.
    ///   - query: The query of the request.
    /// - Returns: A producer of the response.
    public func loadCursor(
        _ cursor: String?, size: Int, query: Query
    ) -> SignalProducer<TestCursorResponse<Item>, TestSourceError> {
        let position = CursorPosition(cursor)
        let opening = initialCursor
        return producer {
            let shift = self.state.withLock { $0.topShift }
            return RequestDescription(
                key: cursor ?? "nil", offset: position?.start(size: size, shift: shift) ?? 0, size: size,
                query: query, direction: nil, isOpening: cursor == nil || cursor == opening)
        } respond: { state in
            let shift = state.topShift
            let count = state.list.count
            let start = min(max(0, position?.start(size: size, shift: shift) ?? 0), count)
            let stop =
                position.flatMap { $0.isBefore ? $0.offset + shift : nil } ?? start + min(size, state.pageCap ?? size)
            let end = min(count, max(start, stop))
            let next = end < count ? "c\(end - shift)" : nil
            let previous = start > 0 ? "b\(start - shift)" : nil
            let described = String(describing: query)
            if let next { state.produce(next, .append, query: described) }
            if let previous { state.produce(previous, .prepend, query: described) }
            return TestCursorResponse(items: Array(state.list[start..<end]), nextCursor: next, previousCursor: previous)
        }
    }

    /// An exhaustible source (`PageSource.exhaustible(load:)`): page `i` holds the items from
    /// `i * size`; it pages one way from the top, whatever ``openAt`` says.
    ///
    /// - Returns: The source.
    public func exhaustible() -> PageSource<Item, Int, Query, TestExhaustibleResponse<Item>, TestSourceError> {
        .exhaustible { index, size, query in self.loadExhaustible(index, size: size, query: query) }
    }

    /// The fake's exhaustible endpoint, for an app's own page source: page `index` of `size` items, and
    /// whether it reaches the end.
    ///
    /// - Parameters:
    ///   - index: The page counter, from 0.
    ///   - size: How many items to send at most.
    ///   - query: The query of the request.
    /// - Returns: A producer of the response.
    public func loadExhaustible(
        _ index: Int, size: Int, query: Query
    ) -> SignalProducer<TestExhaustibleResponse<Item>, TestSourceError> {
        let offset = index * size
        return producer {
            RequestDescription(
                key: "\(index)", offset: offset, size: size, query: query, direction: nil, isOpening: index == 0)
        } respond: { state in
            let items = state.slice(from: offset, size: size)
            let exhausted = offset + items.count >= state.list.count
            if !exhausted { state.produce("\(index + 1)", .append, query: String(describing: query)) }
            return TestExhaustibleResponse(items: items, isExhausted: exhausted)
        }
    }

    /// A single-load source (`PageSource.singleLoad(load:)`): one request returns the whole list.
    ///
    /// - Returns: The source.
    public func singleLoad() -> PageSource<Item, Int, Query, Void, TestSourceError> {
        .singleLoad { query in self.loadAll(query: query) }
    }

    /// The fake's single-load endpoint, for an app's own page source: the whole list, in one answer.
    ///
    /// Its requests are logged with the key `"all"`, as refreshes.
    ///
    /// - Parameter query: The query of the request.
    /// - Returns: A producer of the list.
    public func loadAll(query: Query) -> SignalProducer<[Item], TestSourceError> {
        producer {
            RequestDescription(key: "all", offset: 0, size: 0, query: query, direction: .refresh, isOpening: true)
        } respond: { state in
            state.list
        }
    }
}

/// Where a fake cursor points: the page from an item on, or the page that ends before it, by the item's
/// position counted from the list's first top (rows inserted above since then shift it).
struct CursorPosition: Sendable {
    let offset: Int
    let isBefore: Bool

    /// The offset in the list now of the first item of a page of `size`, with `shift` rows added above.
    func start(size: Int, shift: Int) -> Int {
        isBefore ? max(0, offset + shift - size) : offset + shift
    }

    /// Parses `"c<n>"` and `"b<n>"`; `nil` for the top, a malformed cursor points at offset 0.
    init?(_ cursor: String?) {
        guard let cursor else { return nil }
        isBefore = cursor.hasPrefix("b")
        offset = Int(cursor.dropFirst()) ?? 0
    }
}
