import Reactive
import Stapler
import StaplerTesting
import Testing

/// Loads pages at both ends until neither loads more (a synchronous source answers each at once).
private func walkToBothEnds<Key, Metadata>(_ paginator: Paginator<Int, Key, Void, Metadata, TestSourceError>) {
    for _ in 0..<100 {
        let next = paginator.loadNextPage()
        let previous = paginator.loadPreviousPage()
        if case .ignored = next, case .ignored = previous { return }
    }
}

@Suite("Test kit: fake page sources")
struct TestPageSourceTests {
    @Test("P68: the offset fake opens mid-list, reports items before and total, pages both ways, ends short")
    func offsetOpensMidList() {
        let server = TestPageSource(Array(0..<95), openAt: 50, delivery: .synchronous)
        let paginator = Paginator(
            source: server.offset(), initialKey: server.initialOffset,
            options: PagingOptions(pageSize: 10, placeholders: .shown))
        paginator.refresh()
        #expect(Array(paginator.items.value) == Array(50..<60))
        #expect(paginator.total.value == 95)
        #expect(paginator.snapshot.value.placeholdersBefore == 50)
        walkToBothEnds(paginator)
        #expect(Array(paginator.items.value) == Array(0..<95))
        #expect(server.requests.last(where: { $0.direction == .append })?.key == "90")
        #expect(paginator.isEndReached.value)
    }

    @Test("P68: every page model's fake, opened mid-list where it can, pages to both ends with every item once")
    func everyModelWalksTheWholeList() {
        let all = Array(0..<47)
        let offset = TestPageSource(all, openAt: 23, delivery: .synchronous)
        let offsetList = Paginator(source: offset.offset(), pageSize: 10, initialKey: offset.initialOffset)
        let numbered = TestPageSource(all, openAt: 23, delivery: .synchronous)
        let numberedList = Paginator(
            source: numbered.pageNumber(firstPage: 1), pageSize: 10,
            initialKey: numbered.initialPageNumberKey(pageSize: 10))
        let cursor = TestPageSource(all, openAt: 23, delivery: .synchronous)
        let cursorList = Paginator(source: cursor.cursor(), pageSize: 10, initialKey: cursor.initialCursor)
        let custom = TestPageSource(all, openAt: 23, delivery: .synchronous)
        let customList = Paginator(source: custom.custom(), pageSize: 10)
        let exhaustible = Paginator(source: TestPageSource(all, delivery: .synchronous).exhaustible(), pageSize: 10)
        let single = Paginator(source: TestPageSource(all, delivery: .synchronous).singleLoad())

        offsetList.refresh()
        #expect(Array(offsetList.items.value) == Array(23..<33))
        numberedList.refresh()
        #expect(Array(numberedList.items.value) == Array(20..<30))
        cursorList.refresh()
        #expect(Array(cursorList.items.value) == Array(23..<33))
        customList.refresh()
        #expect(Array(customList.items.value) == Array(23..<33))
        exhaustible.refresh()
        single.refresh()
        walkToBothEnds(offsetList)
        walkToBothEnds(numberedList)
        walkToBothEnds(cursorList)
        walkToBothEnds(customList)
        walkToBothEnds(exhaustible)
        #expect(Array(offsetList.items.value) == all)
        #expect(Array(numberedList.items.value) == all)
        #expect(Array(cursorList.items.value) == all)
        #expect(Array(customList.items.value) == all)
        #expect(Array(exhaustible.items.value) == all)
        #expect(Array(single.items.value) == all)
        #expect(cursor.requests.allSatisfy { $0.key == "c23" || $0.key.hasPrefix("b") || $0.key.hasPrefix("c") })
    }

    @Test("P68: by default the answer comes on a later turn; two loadNextPage calls in one turn make one request")
    func nextTurnDelivery() {
        let scheduler = TestScheduler()
        let server = TestPageSource(Array(0..<30), delivery: .nextTurn(on: scheduler))
        let paginator = Paginator(source: server.offset(), pageSize: 10)
        paginator.refresh()
        #expect(paginator.items.value.isEmpty, "nothing is answered inside the call")
        #expect(server.unansweredRequests.map(\.key) == ["0"] && server.pendingWork.isEmpty)
        scheduler.run()
        #expect(server.unansweredRequests.isEmpty)
        #expect(Array(paginator.items.value) == Array(0..<10))
        paginator.loadNextPage()
        paginator.loadNextPage()
        #expect(server.requests.map(\.key) == ["0", "10"])
        scheduler.run()
        #expect(Array(paginator.items.value) == Array(0..<20))
        #expect(server.requests.map(\.direction) == [.refresh, .append])
    }

    @Test("P68: the default delivery answers on a global queue after the call returns")
    func defaultDeliveryIsAsynchronous() async {
        let server = TestPageSource(Array(0..<25))
        let paginator = Paginator(source: server.cursor(), pageSize: 10)
        let outcome = await paginator.refresh()
        guard case .loaded = outcome else {
            Issue.record("the refresh ended \(outcome)")
            return
        }
        await paginator.loadNextPage()
        await paginator.loadNextPage()
        #expect(Array(paginator.items.value) == Array(0..<25))
        #expect(server.requests.map(\.key) == ["nil", "c10", "c20"])
    }

    @Test("P68: a latency on a TestScheduler holds the answer until the clock reaches it")
    func latencyDelivery() {
        let scheduler = TestScheduler()
        let server = TestPageSource(Array(0..<30), delivery: .after(.seconds(2), on: scheduler))
        let paginator = Paginator(source: server.cursor(), pageSize: 10)
        paginator.refresh()
        scheduler.advance(by: .seconds(1))
        #expect(paginator.items.value.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(Array(paginator.items.value) == Array(0..<10))
    }

    @Test("P68: manual delivery parks each request until the test answers or fails it; a refresh disposes one")
    func manualDelivery() throws {
        let server = TestPageSource(Array(0..<30), delivery: .manual)
        let paginator = Paginator(source: server.offset(), pageSize: 10)
        paginator.refresh()
        #expect(server.pendingRequests.map(\.description) == ["refresh(key: 0, size: 10)"])
        #expect(server.pendingWork == [.refresh(key: 0)])
        #expect(server.unansweredRequests.map(\.key) == ["0"])
        server.answerAll()
        #expect(server.pendingRequests.isEmpty && paginator.items.value.count == 10)
        #expect(server.unansweredRequests.isEmpty && server.pendingWork.isEmpty)
        paginator.loadNextPage()
        let append = try #require(server.pendingRequests.first)
        server.fail(append)
        #expect(paginator.state.value.error?.sourceError == .injected(key: "10", request: 2))
        paginator.retry()
        paginator.refresh()
        let superseded = try #require(server.requests.dropLast().last)
        #expect(server.isDisposed(superseded), "the refresh disposed the retried append")
        #expect(server.pendingRequests.map(\.key) == ["0"])
        server.answer(superseded)
        server.answerAll()
        #expect(Array(paginator.items.value) == Array(0..<10))
    }

    @Test("P68: a failure injected twice at a key fails two requests, then the page loads")
    func failTwiceThenSucceed() {
        let server = TestPageSource(Array(0..<30), delivery: .synchronous, failures: [.atOffset(10, times: 2)])
        let paginator = Paginator(source: server.offset(), pageSize: 10)
        paginator.refresh()
        paginator.loadNextPage()
        #expect(paginator.state.value.error?.sourceError == .injected(key: "10", request: 2))
        paginator.retry()
        #expect(paginator.state.value.error?.sourceError == .injected(key: "10", request: 3))
        paginator.retry()
        #expect(Array(paginator.items.value) == Array(0..<20))
        #expect(server.requestCount == 4)
    }

    @Test("P68: a failure with no count fails every request it matches")
    func failAlways() {
        let server = TestPageSource(Array(0..<30), delivery: .synchronous, failures: [.atRequest(1, times: nil)])
        let paginator = Paginator(source: server.pageNumber(), pageSize: 10)
        for _ in 0..<3 { paginator.refresh() }
        #expect(paginator.state.value.error?.sourceError == .injected(key: "1", request: 3))
        #expect(paginator.items.value.isEmpty)
    }

    @Test("P68: a key the fake never produced fails its request with unknownKey naming the key")
    func unknownKeyFails() {
        let server = TestPageSource(Array(0..<40), openAt: 10, delivery: .synchronous, pageCap: 8)
        // An app's own source that computes the next offset as key + pageSize: wrong after a short page.
        let source = PageSource<Int, Int, Void, Void, TestSourceError>(firstKey: 10) { request in
            server.loadOffset(request.key, size: request.pageSize, query: ()).map { response in
                Page(items: response.items, nextKey: request.key + request.pageSize, total: response.total)
            }
        }
        let paginator = Paginator(source: source, pageSize: 10)
        paginator.refresh()
        #expect(Array(paginator.items.value) == Array(10..<18))
        paginator.loadNextPage()
        let error = paginator.state.value.error?.sourceError
        #expect(error?.testKitError == .unknownKey("20"))
        #expect(server.requests.map(\.key) == ["10", "20"])
    }

    @Test("P68: the log keeps each request's key, direction, size and query in order")
    func requestLog() {
        let server = TestPageSource(Array(0..<30), query: String.self, delivery: .synchronous)
        let paginator = Paginator(source: server.custom(), pageSize: 10, query: "a")
        paginator.refresh()
        paginator.loadNextPage()
        paginator.refresh(query: "b")
        #expect(server.requests.map(\.key) == ["0", "10", "0"])
        #expect(server.requests.map(\.direction) == [.refresh, .append, .refresh])
        #expect(server.requests.map(\.query) == ["a", "a", "b"])
        #expect(server.requests.map(\.pageSize) == [10, 10, 10])
        #expect(server.requests.map(\.index) == [1, 2, 3])
    }

    @Test("P68: a source built from lists serves the next list from the next refresh on")
    func sequenceOfLists() {
        let server = TestPageSource(lists: [Array(0..<5), Array(100..<103)], delivery: .synchronous)
        let paginator = Paginator(source: server.offset(), pageSize: 10)
        paginator.refresh()
        #expect(Array(paginator.items.value) == Array(0..<5))
        paginator.refresh()
        #expect(Array(paginator.items.value) == Array(100..<103))
        server.serve([7])
        paginator.refresh()
        #expect(Array(paginator.items.value) == [7])
    }

    @Test("P68: rows inserted above between requests shift an offset list, as a live feed does; cursors hold")
    func rowsInsertedAbove() {
        let offsetServer = TestPageSource(Array(0..<30), delivery: .synchronous)
        let offsetList = Paginator(source: offsetServer.offset(), pageSize: 10)
        let cursorServer = TestPageSource(Array(0..<30), delivery: .synchronous)
        let cursorList = Paginator(source: cursorServer.cursor(), pageSize: 10)
        offsetList.refresh()
        cursorList.refresh()
        offsetServer.insertAtTop([-2, -1])
        cursorServer.insertAtTop([-2, -1])
        offsetList.loadNextPage()
        cursorList.loadNextPage()
        #expect(Array(offsetList.items.value) == Array(0..<10) + Array(8..<18), "offset paging repeats 8 and 9")
        #expect(Array(cursorList.items.value) == Array(0..<20), "a cursor points at its item")
        cursorServer.removeFromTop(5)
        cursorList.loadNextPage()
        #expect(Array(cursorList.items.value) == Array(0..<30))
        offsetServer.mutate { $0.removeAll { $0 < 0 } }
        #expect(offsetServer.items == Array(0..<30))
    }

    @Test("P68: a cursor fake opened mid-list pages up past rows inserted at the top, to the new first row")
    func cursorPagesUpToNewRows() {
        let server = TestPageSource(Array(0..<20), openAt: 10, delivery: .synchronous)
        let paginator = Paginator(source: server.cursor(), pageSize: 10, initialKey: server.initialCursor)
        paginator.refresh()
        server.insertAtTop([-1])
        paginator.loadPreviousPage()
        #expect(Array(paginator.items.value) == Array(0..<20))
        paginator.loadPreviousPage()
        #expect(Array(paginator.items.value) == [-1] + Array(0..<20), "the page above item 0 holds the new row")
        paginator.refresh()
        #expect(Array(paginator.items.value) == Array(10..<20), "the opening cursor still points at item 10")
    }
}
