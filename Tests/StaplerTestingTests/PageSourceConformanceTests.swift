import Reactive
import Stapler
import StaplerTesting
import Testing

/// A hand-written offset source over ids `0..<count` whose previous key comes from `previousKey`, given
/// the page's offset (the bugs under test live there); like many, it always answers a full page.
private func offsetSource(
    count: Int = 100, pageSize: Int = 10, openingAt keys: [Int], previousKey: @escaping @Sendable (Int) -> Int?
) -> PageSourceUnderTest<Int, Int, Void, Void, Never, Int> {
    let source = PageSource<Int, Int, Void, Void, Never>(firstKey: 0) { request in
        let start = min(request.key, count)
        let end = min(count, start + request.pageSize)
        return SignalProducer(
            value: Page(
                items: Array(start..<end), previousKey: previousKey(start), nextKey: end < count ? end : nil))
    }
    return PageSourceUnderTest(source: source, openingAt: keys, pageSize: pageSize)
}

/// An app's offset response: a slice of rows and their total.
private struct RowsResponse: PaginatedResponse {
    let items: [Int]
    let total: Int
}

/// An app's cursor response: a slice of rows and the cursor after them.
private struct CursorRowsResponse: CursorPageResponse {
    let items: [Int]
    let nextCursor: String?
}

/// The rows of `rows` from `offset`, at most `size` of them.
private func slice(_ rows: [Int], from offset: Int, size: Int) -> [Int] {
    let start = min(max(0, offset), rows.count)
    return Array(rows[start..<min(rows.count, start + size)])
}

/// The violation `check` throws, or `nil` if the subject passes.
private func violation<Item, Key, Query, Metadata, Failure, ID>(
    _ subject: PageSourceUnderTest<Item, Key, Query, Metadata, Failure, ID>
) -> ConformanceViolation? {
    do throws(ConformanceViolation) {
        try PageSourceConformance.check(subject)
        return nil
    } catch {
        return error
    }
}

@Suite("Test kit: page source conformance")
struct PageSourceConformanceTests {
    @Test("P68: a previous key computed as the page's own offset fails, naming the prepend, key and ids")
    func previousKeyIsOwnOffset() throws {
        let subject = offsetSource(openingAt: [20]) { offset in offset > 0 ? offset : nil }
        let found = try #require(violation(subject))
        #expect(found.description == "prepend from key 20 returned ids 20–29, already loaded from key 20")
        #expect(found.direction == .prepend && found.key == "20" && found.ids.count == 10)
    }

    @Test("P68: a first page opened at 50 without a previous key fails: id 0 is unreachable from there")
    func openingPageWithoutPreviousKey() throws {
        let subject = offsetSource(openingAt: [50]) { offset in offset > 0 && offset != 50 ? offset - 10 : nil }
        let found = try #require(violation(subject))
        #expect(found.description == "id 0 unreachable from openAt 50")
    }

    @Test("P68: a source opened at its last page, which holds one item, walks up to item 0 and passes")
    func openedAtAOneItemLastPage() {
        let subject = offsetSource(count: 91, openingAt: [90]) { offset in offset > 0 ? max(0, offset - 10) : nil }
        #expect(violation(subject) == nil)
        let broken = offsetSource(count: 91, openingAt: [90]) { offset in offset > 10 ? offset - 10 : nil }
        #expect(violation(broken)?.description == "id 0 unreachable from openAt 90")
    }

    @Test("P68: a previous key that leads elsewhere than the items just before its page breaks the round trip")
    func roundTrip() throws {
        let subject = offsetSource(openingAt: []) { offset in offset > 0 ? max(0, offset - 5) : nil }
        let found = try #require(violation(subject))
        #expect(
            found.description
                == "the previous key 5 of the page at key 10 leads to ids 5–14, not to the ids just before that page (0–9)"
        )
    }

    @Test("P68: a short page and an empty last page both end the list; a page over the page size fails")
    func endsOfTheList() throws {
        let emptyLast = PageSource<Int, Int, Void, Void, Never>(firstKey: 0) { request in
            let items = request.key < 25 ? Array(request.key..<min(25, request.key + 10)) : []
            return SignalProducer(value: Page(items: items, nextKey: request.key + items.count))
        }
        #expect(violation(PageSourceUnderTest(source: emptyLast, pageSize: 10)) == nil)
        let oversized = PageSource<Int, Int, Void, Void, Never>(firstKey: 0) { _ in
            SignalProducer(value: Page(items: Array(0..<12), nextKey: nil))
        }
        #expect(
            violation(PageSourceUnderTest(source: oversized, pageSize: 10))?.description
                == "refresh from key 0 returned 12 items, more than the page size 10")
    }

    @Test("P68: an app's offset source passes through the offset model's own keys; one ignoring the size fails")
    func appOffsetSource() throws {
        let rows = Array(0..<95)
        let source = PageSource<Int, Int, Void, RowsResponse, Never>.offset { offset, size, _ in
            SignalProducer(value: RowsResponse(items: slice(rows, from: offset, size: size), total: rows.count))
        }
        #expect(
            violation(PageSourceUnderTest(source: source, openingAt: [33], openingAtPositions: [50, 94], pageSize: 10))
                == nil)
        // The model cuts the prepend above offset 3 to the 3 rows before it; a closure that answers a whole
        // page anyway sends rows 3-9 twice.
        let sizeIgnored = PageSource<Int, Int, Void, RowsResponse, Never>.offset { offset, _, _ in
            SignalProducer(value: RowsResponse(items: slice(rows, from: offset, size: 10), total: rows.count))
        }
        let found = try #require(violation(PageSourceUnderTest(source: sizeIgnored, openingAt: [33], pageSize: 10)))
        #expect(found.description == "prepend from key 0 returned ids 3–9, already loaded from key 3")
    }

    @Test("P68: an app's cursor source whose next cursor points at its page's last row fails, naming the cursor")
    func appCursorSourceWithABug() throws {
        let rows = Array(0..<40)
        let source = PageSource<Int, String?, Void, CursorRowsResponse, Never>.cursor { cursor, size, _ in
            let offset = cursor.flatMap { Int($0.dropFirst()) } ?? 0
            let items = slice(rows, from: offset, size: size)
            let end = offset + items.count
            return SignalProducer(
                value: CursorRowsResponse(items: items, nextCursor: end < rows.count ? "i\(end - 1)" : nil))
        }
        let found = try #require(violation(PageSourceUnderTest(source: source, pageSize: 10)))
        #expect(found.description == "append from key i9 returned ids 9, already loaded from key nil")
        #expect(found.direction == .append && found.key == "i9" && found.ids == ["9"])
    }

    @Test("P68: the fake passes for every page model, opened at the start, the middle and the end, synchronously")
    func fakePassesSynchronously() {
        expectFakePasses(delivery: .synchronous, scheduler: nil)
    }

    @Test("P68: the fake passes for every page model when it answers on a later turn of a TestScheduler")
    func fakePassesOnATestScheduler() {
        let scheduler = TestScheduler()
        expectFakePasses(delivery: .nextTurn(on: scheduler), scheduler: scheduler)
    }

    @Test("P68: the fake passes when it answers on a global queue, the check waiting for each answer")
    func fakePassesOnAnotherThread() {
        expectFakePasses(delivery: .nextTurn, scheduler: nil)
    }

    @Test("P68: a source that never answers fails, naming the load")
    func neverAnswers() {
        let scheduler = TestScheduler()
        let server = TestPageSource(Array(0..<30), delivery: .manual)
        let subject = PageSourceUnderTest(source: server.custom(), pageSize: 10, scheduler: scheduler)
        #expect(
            violation(subject)?.description == "refresh from key 0 was not answered when its scheduler ran out of work")
    }

    private func expectFakePasses(delivery: TestDelivery, scheduler: TestScheduler?) {
        let all = Array(0..<95)
        let server = TestPageSource(all, delivery: delivery, strictKeys: false)
        let custom = PageSourceUnderTest(
            source: server.custom(), openingAt: [47, 90, 94], pageSize: 10, scheduler: scheduler)
        let offset = PageSourceUnderTest(
            source: server.offset(), openingAt: [47, 90, 94], pageSize: 10, scheduler: scheduler)
        let numbered = PageSourceUnderTest(
            source: server.pageNumber(), openingAtPositions: [47, 94], pageSize: 10, scheduler: scheduler)
        let cursor = PageSourceUnderTest(
            source: server.cursor(), openingAt: ["c47", "c94"], pageSize: 10, scheduler: scheduler)
        let exhaustible = PageSourceUnderTest(source: server.exhaustible(), pageSize: 10, scheduler: scheduler)
        let singleLoad = PageSourceUnderTest(source: server.singleLoad(), pageSize: 10, scheduler: scheduler)
        #expect(
            numbered.openingKeys == [PageNumberKey(page: 5, itemsBefore: 40), PageNumberKey(page: 10, itemsBefore: 90)])
        #expect(violation(custom) == nil)
        #expect(violation(offset) == nil)
        #expect(violation(numbered) == nil)
        #expect(violation(cursor) == nil)
        #expect(violation(exhaustible) == nil)
        #expect(violation(singleLoad) == nil)
        #expect(server.requestCount > 50, "the checks drove the fake")
    }
}
