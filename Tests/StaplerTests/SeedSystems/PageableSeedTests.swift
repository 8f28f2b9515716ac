import Dispatch
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// Seed 004 (Pageable): the README's `PageInteractor`, step by step, in our API.
///
/// Its service loads numbered pages from a configurable first page and reports the total page count;
/// the table asks for the visible row count (the items plus a loading row) and a cell for each row, and
/// prefetches when a row is displayed; a key path drops items that a shifting server list repeats; and
/// the service can cancel its requests.
@Suite("Pageable (seed 004)")
struct PageableSeedTests {
    struct UserModel: Equatable, Sendable, Identifiable {
        let id: Int

        var name: String { "user\(id)" }
    }

    /// The README's `PageInfo<T>`: the items, the current page and the total page count.
    struct PageInfo: NumberedPageResponse {
        let types: [UserModel]
        let page: Int
        let totalPageCount: Int

        var items: [UserModel] { types }
        var pageCount: Int? { totalPageCount }
    }

    enum ServiceError: Error, Equatable {
        case failed
    }

    typealias Server = ManualServer<Int, PageInfo, ServiceError>
    typealias PageInteractor = Paginator<UserModel, PageNumberKey, Void, PageInfo, ServiceError>

    /// The server's list, which may change between pages.
    final class ServerList: Sendable {
        let ids: Locked<[Int]>
        let pageSize: Int
        let firstPage: Int

        init(_ ids: [Int], pageSize: Int, firstPage: Int) {
            self.ids = Locked(ids)
            self.pageSize = pageSize
            self.firstPage = firstPage
        }

        /// Answers the latest request of `server` from the list as it is now.
        func answer(_ server: Server) {
            let request = server.last!
            let ids = self.ids.value
            let start = min((request.key - firstPage) * pageSize, ids.count)
            let slice = ids[start..<min(start + pageSize, ids.count)]
            let pageCount = (ids.count + pageSize - 1) / pageSize
            request.succeed(PageInfo(types: slice.map(UserModel.init), page: request.key, totalPageCount: pageCount))
        }
    }

    /// The README's `PageInteractor(firstPage:service:keyPath:)`, prefetching on the last row's display.
    static func pageInteractor(
        firstPage: Int, pageSize: Int = 4, server: Server, keyPath: (KeyPath<UserModel, Int> & Sendable)? = nil
    ) -> PageInteractor {
        PageInteractor(
            source: .pageNumber(firstPage: firstPage) { page, size, _ in server.producer(page, size: size) },
            options: PagingOptions(pageSize: pageSize, prefetchDistance: 0, deduplication: keyPath.map { .by($0) }))
    }

    typealias FakeServer = TestPageSource<UserModel, Void>

    /// The interactor over the kit's fake: the service's pages are the fake's numbered pages from
    /// `firstPage`, with the fake's page count, and every failure of the fake is `.failed`.
    static func pageInteractor(
        firstPage: Int, server: FakeServer, keyPath: (KeyPath<UserModel, Int> & Sendable)? = nil
    ) -> PageInteractor {
        PageInteractor(
            source: .pageNumber(firstPage: firstPage) { page, size, _ in
                server.loadPage(page, size: size, firstPage: firstPage, query: ())
                    .map { PageInfo(types: $0.items, page: page, totalPageCount: $0.pageCount ?? 0) }
                    .mapError(server.appFailures { _ in .failed })
            },
            options: PagingOptions(pageSize: 4, prefetchDistance: 0, deduplication: keyPath.map { .by($0) }))
    }

    /// The users `ids`, as the fake's list.
    static func users(_ ids: ClosedRange<Int>) -> [UserModel] { ids.map(UserModel.init) }

    /// The pages the fake was asked for.
    static func pages(_ server: FakeServer) -> [Int] { server.requests.compactMap { Int($0.key) } }

    /// The README's table view: rows from `visibleRow()`, cells from `item(for:)`, `shouldPrefetch` on
    /// `willDisplay`.
    struct TableView {
        let pageInteractor: PageInteractor

        /// Reloads and displays every row; returns the cells shown.
        @discardableResult
        func reloadData() -> [String] {
            guard case .content(let content) = pageInteractor.presentation.value else { return [] }
            let items = pageInteractor.items.value
            return (0..<content.visibleRowCount).map { row in
                pageInteractor.preload(index: row)  // tableView(_:willDisplay:forRowAt:)
                switch content.row(at: row) {
                case .item(let index): return items[index].name
                case .loading: return "loadingCell"
                case nil: return "?"
                }
            }
        }
    }

    @Test("the README's flow: refreshPage(), then each display of the last row loads the next page", arguments: [0, 1])
    func readmeFlow(firstPage: Int) {
        let server = FakeServer(Self.users(1...10), delivery: .manual)
        let pageInteractor = Self.pageInteractor(firstPage: firstPage, server: server)
        let table = TableView(pageInteractor: pageInteractor)
        pageInteractor.refresh()  // setupPageInteractor(): pageInteractor.refreshPage()
        var screens = [table.reloadData()]
        server.answerAll()
        screens.append(table.reloadData())
        screens.append(table.reloadData())
        server.answerAll()
        screens.append(table.reloadData())
        server.answerAll()
        screens.append(table.reloadData())
        #expect(Self.pages(server) == [firstPage, firstPage + 1, firstPage + 2])
        #expect(
            screens == [
                [],
                ["user1", "user2", "user3", "user4", "loadingCell"],
                ["user1", "user2", "user3", "user4", "loadingCell"],
                ["user1", "user2", "user3", "user4", "user5", "user6", "user7", "user8", "loadingCell"],
                (1...10).map { "user\($0)" },
            ])
        #expect(pageInteractor.isEndReached.value, "the total page count is reached")
        #expect(pageInteractor.metadata.value?.page == firstPage + 2)
    }

    @Test("an insert on the server repeats the last item in the next page; the key path drops the repeat")
    func duplicatesDroppedByKeyPath() {
        for keyPath in [nil, \UserModel.id] as [(KeyPath<UserModel, Int> & Sendable)?] {
            let server = FakeServer(Self.users(1...9), delivery: .synchronous)
            let pageInteractor = Self.pageInteractor(firstPage: 1, server: server, keyPath: keyPath)
            let changes = pageInteractor.recordChanges()
            pageInteractor.refresh()
            server.mutate { $0.insert(UserModel(id: 10), at: 2) }  // the README's diagram: 10 lands after 2
            pageInteractor.loadNextPage()
            pageInteractor.loadNextPage()
            let ids = pageInteractor.items.value.map(\.id)
            if keyPath == nil {
                #expect(ids == [1, 2, 3, 4, 4, 5, 6, 7, 8, 9], "without a key path every item is kept (the default)")
            } else {
                #expect(ids == [1, 2, 3, 4, 5, 6, 7, 8, 9])
                #expect(
                    changes.value == [
                        .reloaded([1, 2, 3, 4].map(UserModel.init)),
                        .appended([5, 6, 7].map(UserModel.init), at: 4..<7),
                        .appended([8, 9].map(UserModel.init), at: 7..<9),
                    ])
            }
            #expect(Self.pages(server) == [1, 2, 3], "the pages still advance by the server's count")
            #expect(pageInteractor.isEndReached.value)
        }
    }

    @Test("the visible row count has a loading row while pages are left, none after an error or at the end")
    func visibleRowCount() {
        let server = FakeServer(Self.users(1...6), delivery: .synchronous, failures: [.atRequest(2)])
        let pageInteractor = Self.pageInteractor(firstPage: 0, server: server)
        let rows = pageInteractor.presentation.map(\.visibleRowCount)
        let counts = rows.recordValues()
        pageInteractor.refresh()
        pageInteractor.loadNextPage()  // fails
        pageInteractor.retry()
        #expect(counts.value == [0, 0, 5, 5, 4, 5, 6])
        #expect(pageInteractor.presentation.value == .content(ListContent(itemCount: 6, footer: .end)))
        withExtendedLifetime(rows) {}
    }

    @Test("prefetch on display of a row: with distance 0 only the last item row loads, once per page")
    func prefetchOnDisplay() {
        let server = FakeServer(Self.users(1...20), delivery: .manual)
        let pageInteractor = Self.pageInteractor(firstPage: 1, server: server)
        pageInteractor.refresh()
        server.answerAll()
        for row in 0...2 { pageInteractor.preload(index: row) }
        #expect(Self.pages(server) == [1])
        pageInteractor.preload(index: 4)
        #expect(Self.pages(server) == [1], "the loading row is past the items: its display loads nothing")
        for _ in 0..<10 { pageInteractor.preload(index: 3) }
        #expect(Self.pages(server) == [1, 2])
        server.answerAll()
        for row in 0...8 { pageInteractor.preload(index: row) }
        #expect(Self.pages(server) == [1, 2, 3])
    }

    @Test("cancel() disposes the request in flight without an error; the next display asks for that page again")
    func cancelNextPage() {
        let server = Server()
        let list = ServerList(Array(1...20), pageSize: 4, firstPage: 1)
        let pageInteractor = Self.pageInteractor(firstPage: 1, server: server)
        let states = pageInteractor.recordStates()
        let errors = pageInteractor.errorsAfterFirstPage.record()
        pageInteractor.refresh()
        list.answer(server)
        pageInteractor.preload(index: 3)
        pageInteractor.cancel()  // service.cancelAllRequests()
        #expect(server.last?.disposeCount == 1)
        server.last?.fail(.failed, on: DispatchQueue(label: "late"))
        pageInteractor.preload(index: 3)
        list.answer(server)
        #expect(server.keys == [1, 2, 2])
        #expect(
            names(states.value) == [
                "uninitialized", "refreshing", "data", "loadingMore", "data", "loadingMore", "data",
            ])
        #expect(errors.values.isEmpty)
        #expect(pageInteractor.items.value.map(\.id) == Array(1...8))
    }

    @Test("cancel() during a refresh undoes it: the rows stay and paging resumes where it stood")
    func cancelRefresh() {
        let server = Server()
        let list = ServerList(Array(1...20), pageSize: 4, firstPage: 1)
        let pageInteractor = Self.pageInteractor(firstPage: 1, server: server, keyPath: \UserModel.id)
        let states = pageInteractor.recordStates()
        pageInteractor.cancel()
        pageInteractor.refresh()
        pageInteractor.cancel()
        pageInteractor.refresh()
        list.answer(server)
        pageInteractor.loadNextPage()
        list.answer(server)
        pageInteractor.refresh()  // pull to refresh, then cancelled
        pageInteractor.cancel()
        #expect(server.requests.map(\.disposeCount) == [1, 1, 1, 1])
        #expect(pageInteractor.items.value.map(\.id) == Array(1...8))
        list.ids.withLock { $0.insert(0, at: 0) }  // page 3 now repeats user8
        pageInteractor.loadNextPage()
        list.answer(server)
        #expect(server.keys == [1, 1, 2, 1, 3])
        #expect(pageInteractor.items.value.map(\.id) == Array(1...11), "the seen ids survived the cancelled refresh")
        #expect(
            names(states.value) == [
                "uninitialized", "refreshing", "uninitialized", "refreshing", "data", "loadingMore", "data",
                "refreshing", "data", "loadingMore", "data",
            ])
        #expect(illegalMoves(states.value).isEmpty)
    }

    @Test("refreshPage() keeps the rows until the first page arrives, and a next page in flight never lands after it")
    func refreshKeepsRowsAndDropsStalePages() {
        let server = Server()
        let list = ServerList(Array(1...20), pageSize: 4, firstPage: 1)
        let pageInteractor = Self.pageInteractor(firstPage: 1, server: server)
        let table = TableView(pageInteractor: pageInteractor)
        pageInteractor.refresh()
        list.answer(server)
        table.reloadData()
        let stale = server.last!
        pageInteractor.refresh()
        #expect(table.reloadData() == ["user1", "user2", "user3", "user4"], "the seed emptied the rows here")
        #expect(stale.disposeCount == 1)
        stale.succeed(
            PageInfo(types: [UserModel(id: 99)], page: 2, totalPageCount: 5), on: DispatchQueue(label: "late"))
        list.ids.value = Array(101...120)
        list.answer(server)
        #expect(pageInteractor.items.value.map(\.id) == Array(101...104))
        #expect(server.keys == [1, 2, 1])
    }
}
