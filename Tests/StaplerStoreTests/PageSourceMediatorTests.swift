import Reactive
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// The mediator made from a page source: the launch refresh skipped by age (P50), the server's position
/// as the sort key, and a missing key as a typed error (P52).
@Suite struct PageSourceMediatorTests {
    /// T, a wall time, and the durations of the recipes, in milliseconds.
    static let now: Int64 = 1_800_000_000_000
    static let minute: Int64 = 60_000

    /// A store of the server feed on `kind`, with its clock at `time`.
    private func store(_ kind: StoreKind, clock: ManualWallClock) throws -> StoreFixture<FeedItem> {
        try StoreFixture(kind, schema: .serverFeed, clock: clock)
    }

    /// Writes items `ids` as `collection`'s window, refreshed at `time` by the store's clock.
    private func cache(
        _ ids: [Int], in store: StoreFixture<FeedItem>, clock: ManualWallClock, at time: Int64,
        collection: String = "feed"
    ) throws {
        clock.set(time)
        try store.write { tx in
            tx.replaceWindow(
                of: collection,
                rows: ids.enumerated().map { FeedItem(id: $1, title: "i\($1)", position: Int64($0)) },
                keys: StoreRemoteKeys(before: "end", after: "next:\(ids.count)"))
        }
        clock.set(Self.now)
    }

    private func list(
        _ store: StoreFixture<FeedItem>, _ server: FakeFeedServer, clock: ManualWallClock, maxAge: Duration? = nil,
        collection: String = "feed"
    ) -> FeedList {
        let mediator = PageSourceMediator(
            source: server.source, query: (), keys: .lossless, positionedBy: \.position, maxAge: maxAge, clock: clock)
        return FeedList(
            store: store, collection: collection, pageSize: 10, remote: mediator, scheduler: TestScheduler())
    }

    @Test("P50: two queries keep separate lastRefreshed values", arguments: listStoreKinds)
    func p50QueriesKeepTheirOwnAge(kind: StoreKind) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        let young = Self.now - 59 * Self.minute
        try cache(Array((1...20).reversed()), in: store, clock: clock, at: young)
        try cache(
            Array((101...120).reversed()), in: store, clock: clock, at: Self.now - 61 * Self.minute, collection: "other"
        )
        let server = FakeFeedServer(ids: Array((1...40).reversed()))
        _ = list(store, server, clock: clock, maxAge: .seconds(3600))
        #expect(server.requests == [])
        _ = list(store, server, clock: clock, maxAge: .seconds(3600), collection: "other")
        #expect(server.requests == [0])
        #expect(try store.lastRefreshed(of: "feed") == WallTime(millisecondsSince1970: young))
        #expect(try store.lastRefreshed(of: "other") == WallTime(millisecondsSince1970: Self.now))
    }

    @Test(
        "P50: the launch refresh is skipped only while the cache has rows and is younger than maxAge",
        arguments: listStoreKinds, [(-59, false), (-61, true), (2 * 24 * 60, true)])
    func p50LaunchRefreshByAge(kind: StoreKind, age: (minutes: Int64, launches: Bool)) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        try cache(Array((1...20).reversed()), in: store, clock: clock, at: Self.now + age.minutes * Self.minute)
        let server = FakeFeedServer(ids: Array((1...40).reversed()))
        let list = list(store, server, clock: clock, maxAge: .seconds(3600))
        #expect(server.requests == (age.launches ? [0] : []))
        let shown = age.launches ? Array((31...40).reversed()) : Array((11...20).reversed())
        #expect(list.items.value.map(\.id) == shown)
        #expect(list.loadStates.value.refresh.isIdle)
        #expect(list.remoteLoadStates.refresh == .idle(endReached: false))
    }

    @Test("P50: an empty store refreshes however young its last refresh", arguments: listStoreKinds)
    func p50EmptyStoreLaunches(kind: StoreKind) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        try cache([], in: store, clock: clock, at: Self.now - Self.minute)
        let server = FakeFeedServer(ids: Array((1...40).reversed()))
        let list = list(store, server, clock: clock, maxAge: .seconds(3600))
        #expect(server.requests == [0])
        #expect(list.items.value.map(\.id) == Array((31...40).reversed()))
    }

    @Test("P50: a failed refresh keeps lastRefreshed; a successful one writes it", arguments: listStoreKinds)
    func p50OnlySuccessWritesLastRefreshed(kind: StoreKind) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        let cachedAt = Self.now - 61 * Self.minute
        try cache(Array((1...20).reversed()), in: store, clock: clock, at: cachedAt)
        let server = FakeFeedServer(ids: Array((1...40).reversed()))
        server.setDown(true)
        let failed = list(store, server, clock: clock, maxAge: .seconds(3600))
        #expect(server.requests == [0])
        #expect(failed.items.value.count == 10)
        #expect(failed.loadStates.value.refresh.error == .source(.remote(RemoteFailure(Offline()))))
        #expect(try store.lastRefreshed(of: "feed") == WallTime(millisecondsSince1970: cachedAt))
        server.setDown(false)
        let next = list(store, server, clock: clock, maxAge: .seconds(3600))
        #expect(server.requests == [0, 0])
        #expect(next.items.value.map(\.id) == Array((31...40).reversed()))
        #expect(try store.lastRefreshed(of: "feed") == WallTime(millisecondsSince1970: Self.now))
    }

    @Test("P50: lastRefreshed survives reopening the SQLite file")
    func p50LastRefreshedSurvivesReopening() throws {
        let clock = ManualWallClock(Self.now)
        let directory = try TemporaryDirectory()
        var options = SQLiteStore<FeedItem>.Options()
        options.clock = clock
        let path = directory.file("feed.sqlite")
        do {
            let store = try SQLiteStore(path: path, schema: .serverFeed, options: options)
            let server = FakeFeedServer(ids: Array((1...40).reversed()))
            let mediator = PageSourceMediator(
                source: server.source, query: (), keys: .lossless, positionedBy: \.position, clock: clock)
            _ = FeedList(store: store, collection: "feed", pageSize: 10, remote: mediator, scheduler: TestScheduler())
            #expect(server.requests == [0])
        }
        let reopened = try SQLiteStore(path: path, schema: .serverFeed, options: options)
        #expect(try reopened.lastRefreshed(of: "feed") == WallTime(millisecondsSince1970: Self.now))
        #expect(try reopened.count(of: "feed") == 10)
    }

    @Test(
        "Rows inserted at the top of the server's list while the list pages down never show twice or go missing",
        arguments: listStoreKinds)
    func serverInsertsNeverRepeatOrSkip(kind: StoreKind) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        let server = FakeFeedServer(ids: Array((941...1000).reversed()))
        let list = list(store, server, clock: clock)
        #expect(list.items.value.map(\.id) == Array((991...1000).reversed()))
        var inserted = 1001
        for _ in 0..<20 {
            server.insertAtTop(Array((inserted...inserted + 2).reversed()))
            inserted += 3
            list.preload(index: list.items.value.count - 1)
            if list.loadStates.value.append.isEndReached { break }
        }
        let ids = list.items.value.map(\.id)
        #expect(ids == Array((941...1000).reversed()))
        #expect(list.loadStates.value.append.isEndReached)
        #expect(try store.walkRows("feed", pageSize: 7).map(\.id) == ids)
        // Offsets shifted under the walk: pages overlapped rows already stored, which kept their place.
        #expect(server.requests.count > 6)
    }

    @Test(
        "P52: an edge whose stored key is missing fails with missingRemoteKey, never a crash", arguments: listStoreKinds
    )
    func p52MissingKeyFailsTheEdge(kind: StoreKind) throws {
        let clock = ManualWallClock(Self.now)
        let store = try store(kind, clock: clock)
        let server = FakeFeedServer(ids: Array((1...40).reversed()))
        let list = list(store, server, clock: clock)
        try store.write { tx in tx.setRemoteKeys(StoreRemoteKeys(before: "end", after: nil), of: "feed") }
        list.preload(index: 9)
        #expect(list.loadStates.value.append == .failed(.source(.missingRemoteKey(id: 31))))
        #expect(list.remoteLoadStates.append == .failed(.missingRemoteKey(id: 31)))
        #expect(server.requests == [0])
        #expect(list.items.value.count == 10)
        try store.write { tx in tx.setRemoteKeys(StoreRemoteKeys(before: "end", after: "next:garbage"), of: "feed") }
        list.retry()
        #expect(list.loadStates.value.append == .failed(.source(.missingRemoteKey(id: 31))))
        try store.write { tx in tx.setRemoteKeys(StoreRemoteKeys(before: "end", after: "next:10"), of: "feed") }
        list.retry()
        #expect(server.requests == [0, 10])
        #expect(list.items.value.map(\.id) == Array((21...40).reversed()))
    }
}
