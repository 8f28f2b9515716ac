import Dispatch
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// Seed 001 (AnotherPagination): the README's `SearchStateMachine`, step by step, in our API.
///
/// Its data provider answers `(page, query)` (pages from 1) with results and a has-next-page flag: our
/// exhaustible model, the query being the generation's. Its states and allowed transitions are ours; its
/// actions are `refresh(query:)`, `preload(index:)` with a threshold, and `retry`; it is thread safe.
@Suite("AnotherPagination (seed 001)")
struct AnotherPaginationSeedTests {
    struct User: Equatable, Sendable {
        let id: Int
        let query: String?
    }

    /// The README's `SearchDataResult`.
    struct SearchDataResult: ExhaustiblePageResponse {
        let hasNextPage: Bool
        let results: [User]

        var items: [User] { results }
        var isExhausted: Bool { !hasNextPage }
    }

    enum AppError: Error, Equatable {
        case offline
    }

    typealias Server = ManualServer<Call<Int, String?>, SearchDataResult, AppError>
    typealias SearchStateMachine = Paginator<User, Int, String?, SearchDataResult, AppError>

    /// The README's machine: the data provider reads `(page, query)`, pages counted from 1. A prefetch
    /// distance of 3 is the seed's threshold (`index > count - 5`, so row 16 of 20 preloads).
    static func searchStateMachine(_ server: Server) -> SearchStateMachine {
        SearchStateMachine(
            source: .exhaustible { index, size, query in server.producer(Call(index + 1, query), size: size) },
            query: nil,
            options: PagingOptions(pageSize: 20, prefetchDistance: 3))
    }

    /// The users of page `page` for `query`: ids `(page - 1) * 20 ..< + count`.
    static func users(page: Int, count: Int, query: String?) -> [User] {
        ((page - 1) * 20..<(page - 1) * 20 + count).map { User(id: $0, query: query) }
    }

    typealias FakeServer = TestPageSource<User, String?>

    /// The README's machine over the kit's fake: the data provider's pages are the fake's exhaustible pages
    /// of the query's list, and every failure of the fake is the app's `.offline`.
    static func searchStateMachine(_ server: FakeServer) -> SearchStateMachine {
        SearchStateMachine(
            source: .exhaustible { index, size, query in
                server.loadExhaustible(index, size: size, query: query)
                    .map { SearchDataResult(hasNextPage: !$0.isExhausted, results: $0.items) }
                    .mapError(server.appFailures { _ in .offline })
            },
            query: nil,
            options: PagingOptions(pageSize: 20, prefetchDistance: 3))
    }

    /// A fake that answers at once, whose list for a query holds `counts[query]` users (none for others).
    static func fakeServer(_ counts: [String?: Int], failures: [TestFailure] = []) -> FakeServer {
        FakeServer(query: String?.self, delivery: .synchronous, failures: failures) { query in
            users(page: 1, count: counts[query] ?? 0, query: query)
        }
    }

    /// The data provider's calls to the fake: `(page, query)`, pages counted from 1.
    static func calls(_ server: FakeServer) -> [Call<Int, String?>] {
        server.requests.map { Call(Int($0.key)! + 1, $0.query) }
    }

    /// Answers the latest request with `count` users and the has-next-page flag.
    static func answer(_ server: Server, count: Int = 20, hasNextPage: Bool = true, on queue: DispatchQueue? = nil) {
        guard let request = server.last else { return }
        let users = users(page: request.key.key, count: count, query: request.key.query)
        request.succeed(SearchDataResult(hasNextPage: hasNextPage, results: users), on: queue)
    }

    @Test("the README's observer sends refresh on .uninitialized from inside the notification; every move is allowed")
    func readmeObserver() {
        // 45 users without a query, none for "ann", 40 for "bob"; page 3 and the first load of "bob" fail.
        let server = Self.fakeServer([nil: 45, "bob": 40], failures: [.atRequest(3), .atRequest(6)])
        let machine = Self.searchStateMachine(server)
        let states = Locked<[PagingState<AppError>]>([])
        machine.state.producer.startWithValues { [weak machine] state in
            states.append(state)
            if case .uninitialized = state { machine?.refresh(query: nil) }  // machine?.send(action: .refresh)
        }
        machine.preload(index: 16)
        machine.preload(index: 36)
        machine.retry()
        machine.refresh(query: "ann")
        machine.refresh(query: "bob")
        machine.retry()
        let expected: [PagingState<AppError>] = [
            .uninitialized, .refreshing, .data, .loadingMore, .data, .loadingMore, .errorLoadingMore(.source(.offline)),
            .loadingMore, .data, .refreshing, .noData, .refreshing, .errorRefreshing(.source(.offline)), .refreshing,
            .data,
        ]
        #expect(states.value == expected)
        #expect(illegalMoves(states.value).isEmpty)
        #expect(
            Self.calls(server) == [
                Call(1, nil), Call(2, nil), Call(3, nil), Call(3, nil), Call(1, "ann"), Call(1, "bob"), Call(1, "bob"),
            ])
        #expect(Array(machine.items.value) == Self.users(page: 1, count: 20, query: "bob"))
    }

    @Test("a cancel back to .uninitialized reaches the observer, whose refresh from inside the notification runs")
    func reentrantRefreshAfterCancel() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        let states = machine.recordEveryState()
        machine.state.signal.observeValues { [weak machine] state in
            if case .uninitialized = state { machine?.refresh(query: "again") }
        }
        machine.refresh(query: "first")
        machine.cancel()
        #expect(server.keys == [Call(1, "first"), Call(1, "again")])
        #expect(server.requests.map(\.disposeCount) == [1, 0])
        #expect(names(states.value) == ["uninitialized", "refreshing", "uninitialized", "refreshing"])
        Self.answer(server)
        #expect(machine.state.value == .data)
        #expect(illegalMoves(states.value).isEmpty)
    }

    /// Brings a machine to the state named `state` through the seed's actions.
    static func machine(in state: String, server: Server) -> SearchStateMachine {
        let machine = searchStateMachine(server)
        if state == "uninitialized" { return machine }
        machine.refresh(query: "old")
        switch state {
        case "errorRefreshing": server.last?.fail(.offline)
        case "noData": answer(server, count: 0, hasNextPage: false)
        case "data", "loadingMore", "errorLoadingMore": answer(server)
        default: break
        }
        if state == "loadingMore" || state == "errorLoadingMore" { machine.preload(index: 19) }
        if state == "errorLoadingMore" { server.last?.fail(.offline) }
        return machine
    }

    static let allStates = [
        "uninitialized", "refreshing", "errorRefreshing", "noData", "data", "loadingMore", "errorLoadingMore",
    ]

    @Test(
        "refresh(query:) works from every state: it disposes any load and asks for page 1 of the query",
        arguments: allStates)
    func refreshFromEveryState(state: String) {
        let server = Server()
        let machine = Self.machine(in: state, server: server)
        #expect(machine.state.value.name == state)
        let states = machine.recordEveryState()
        let before = server.requests
        machine.refresh(query: "new")
        #expect(before.allSatisfy { $0.isDisposed })
        #expect(server.keys.last == Call(1, "new"))
        #expect(server.keys.count == before.count + 1)
        Self.answer(server)
        #expect(names(states.value) == [state, "refreshing", "data"])
        #expect(illegalMoves(states.value).isEmpty)
        #expect(Array(machine.items.value) == Self.users(page: 1, count: 20, query: "new"))
    }

    @Test("P3: refresh(query:) A, then B, then A again applies only the last load; stale answers on other threads")
    func P3_queryABA() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        let states = machine.recordEveryState()
        let snapshots = machine.items.recordValues()
        machine.refresh(query: "A")
        machine.refresh(query: "B")
        machine.refresh(query: "A")
        let (staleA, staleB, fresh) = (server.requests[0], server.requests[1], server.requests[2])
        #expect(server.keys == [Call(1, "A"), Call(1, "B"), Call(1, "A")])
        #expect(staleA.disposeCount == 1 && staleB.disposeCount == 1 && fresh.disposeCount == 0)
        let old = [User(id: -1, query: "A")]
        staleA.succeed(SearchDataResult(hasNextPage: false, results: old), on: DispatchQueue(label: "A"))
        staleB.fail(.offline, on: DispatchQueue(label: "B"))
        #expect(machine.state.value == .refreshing)
        fresh.succeed(SearchDataResult(hasNextPage: true, results: Self.users(page: 1, count: 20, query: "A")))
        #expect(Array(machine.items.value) == Self.users(page: 1, count: 20, query: "A"))
        #expect(snapshots.value.map(Array.init) == [[], Self.users(page: 1, count: 20, query: "A")])
        #expect(names(states.value) == ["uninitialized", "refreshing", "refreshing", "refreshing", "data"])
        #expect(illegalMoves(states.value).isEmpty)
    }

    @Test("refresh(query: nil) clears the query, as the seed's default argument does; refresh() keeps it")
    func refreshQueryDefault() {
        let server = Self.fakeServer(["ann": 20, nil: 20])
        let machine = Self.searchStateMachine(server)
        machine.refresh(query: "ann")
        machine.refresh()
        machine.refresh(query: nil)
        #expect(Self.calls(server) == [Call(1, "ann"), Call(1, "ann"), Call(1, nil)])
    }

    @Test("preload(index:) with the README's threshold: page size 20, row 16 preloads and row 10 does not")
    func preloadThreshold() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        machine.refresh(query: nil)
        Self.answer(server)
        for row in 0...15 { machine.preload(index: row) }
        #expect(server.keys.count == 1, "rows 0 to 15 of 20 (row 10 included) do not preload")
        machine.preload(index: 16)
        #expect(server.keys == [Call(1, nil), Call(2, nil)])
        for row in 0..<20 { machine.preload(index: row) }
        #expect(server.keys.count == 2, "nothing while the page loads")
        Self.answer(server)
        machine.preload(index: 35)
        #expect(server.keys.count == 2)
        machine.preload(index: 36)
        #expect(server.keys == [Call(1, nil), Call(2, nil), Call(3, nil)])
    }

    @Test("retry re-requests the failed page; from errorRefreshing the first page (the seed ignored it there)")
    func retry() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        let states = machine.recordStates()
        machine.retry()
        machine.refresh(query: "q")
        machine.retry()
        server.last?.fail(.offline)
        machine.retry()
        Self.answer(server)
        machine.retry()
        machine.preload(index: 19)
        server.last?.fail(.offline)
        machine.retry()
        machine.retry()
        Self.answer(server, count: 3, hasNextPage: false)
        machine.retry()
        #expect(server.keys == [Call(1, "q"), Call(1, "q"), Call(2, "q"), Call(2, "q")])
        #expect(
            names(states.value) == [
                "uninitialized", "refreshing", "errorRefreshing", "refreshing", "data", "loadingMore",
                "errorLoadingMore", "loadingMore", "data",
            ])
        #expect(machine.items.value.count == 23)
    }

    @Test("noData is an empty first page only; an empty later page ends the list with data")
    func noData() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        machine.refresh(query: "nobody")
        Self.answer(server, count: 0, hasNextPage: true)
        #expect(machine.state.value == .noData)
        #expect(machine.presentation.value == .empty)
        machine.preload(index: 0)
        machine.loadNextPage()
        #expect(server.keys.count == 1)
        machine.refresh(query: "someone")
        Self.answer(server)
        machine.preload(index: 19)
        Self.answer(server, count: 0, hasNextPage: true)
        #expect(machine.state.value == .data)
        #expect(machine.isEndReached.value, "an empty page ends the list whatever its flag says")
        #expect(machine.items.value.count == 20)
    }

    @Test("noData(query:): the query of the empty list is observable, changing with the refresh that set it")
    func noDataQuery() {
        let server = Server()
        let machine = Self.searchStateMachine(server)
        let queries = machine.query.recordValues()
        let emptyFor = Locked<[String?]>([])
        machine.state.signal.observeValues { state in
            // The seed's `.noData(query:)`: the query is read in the same notification, consistently.
            if state == .noData { emptyFor.append(machine.query.value) }
        }
        machine.refresh(query: "nobody")
        #expect(machine.query.value == "nobody", "the new query is current while its first page loads")
        Self.answer(server, count: 0, hasNextPage: false)
        machine.refresh(query: "someone")
        machine.cancel()
        #expect(machine.query.value == "nobody", "a cancelled refresh restores the query of the list shown")
        machine.refresh()
        Self.answer(server, count: 0, hasNextPage: false)
        #expect(emptyFor.value == ["nobody", "nobody", "nobody"], "the empty page, the cancel back to it, the reload")
        #expect(queries.value == [nil, "nobody", "someone", "nobody"])
    }

    @Test(".data delivers each new page: an update's new items are the page, and a refresh replaces the rows")
    func dataCarriesTheNewPage() {
        let server = Self.fakeServer(["q": 25])
        let machine = Self.searchStateMachine(server)
        let changes = machine.recordChanges()
        machine.refresh(query: "q")
        machine.preload(index: 19)
        machine.refresh(query: "q")
        #expect(
            changes.value == [
                .reloaded(Self.users(page: 1, count: 20, query: "q")),
                .appended(Self.users(page: 2, count: 5, query: "q"), at: 20..<25),
                .reloaded(Self.users(page: 1, count: 20, query: "q")),
            ])
        #expect(machine.items.value.count == 20, "no duplicated rows after a pull-to-refresh")
    }

    @Test("thread safe: actions from 8 threads while answers arrive on another queue keep every move allowed")
    func threadSafety() {
        let answered = Locked(0)
        let backend = QueueBackend<Call<Int, String?>, SearchDataResult, AppError> { call in
            let count = answered.withLock { count -> Int in
                count += 1
                return count
            }
            if count % 7 == 0 { return .failure(.offline) }
            let last = call.key >= 4
            return .success(
                SearchDataResult(
                    hasNextPage: !last, results: Self.users(page: call.key, count: last ? 5 : 20, query: call.query)))
        }
        for _ in 0..<5 {
            let machine = SearchStateMachine(
                source: .exhaustible { index, _, query in backend.producer(Call(index + 1, query)) }, query: nil,
                options: PagingOptions(pageSize: 20, prefetchDistance: 3))
            let states = machine.recordEveryState()
            raceFromBarrier(threads: 8) { thread in
                for step in 0..<1_000 {
                    switch (thread + step) % 5 {
                    case 0 where step % 100 == 0: machine.refresh(query: "q\(thread % 3)")
                    case 1: machine.retry()
                    case 2: machine.loadNextPage()
                    default: machine.preload(index: machine.items.value.count - 1 - step % 4)
                    }
                }
            }
            backend.drain()
            #expect(states.value.count > 2, "the racers refreshed and paged")
            #expect(illegalMoves(states.value).isEmpty)
            #expect(!machine.state.value.isLoading)
            let users = Array(machine.items.value)
            #expect(users.map(\.id) == Array(0..<users.count), "every page once, in order")
            #expect(Set(users.map(\.query)).count <= 1, "the items of one query only")
        }
    }
}
