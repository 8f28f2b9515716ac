import Reactive
import Stapler
import TestSupport
import Testing

/// Lists over a store under real threads: writers commit while other threads page, and every update a
/// list publishes is checked as it arrives.
@Suite struct StoreListStressTests {
    /// Whether `posts` are in the feed's order (newest first, ties by id), each once.
    private func inFeedOrder(_ posts: some Collection<Post>) -> Bool {
        zip(posts, posts.dropFirst()).allSatisfy { a, b in
            let (x, y) = (a.createdAt ?? Int.min, b.createdAt ?? Int.min)
            return x > y || (x == y && a.id > b.id)
        }
    }

    /// Records whether every published update was in the feed's order.
    private func watchOrder(_ list: PostList) -> (Locked<Bool>, any Disposable) {
        let ordered = Locked(true)
        let observation = list.updates.observeValues { [self] update in
            if !inFeedOrder(update.items) { ordered.value = false }
        }
        return (ordered, observation)
    }

    /// One random write to the feed: an insert, a delete or a sort-key change.
    private static func randomWrite(_ store: some LocalStore<Post>, _ generator: inout SystemRandomNumberGenerator)
        throws
    {
        let id = Int.random(in: 1...150, using: &generator)
        try store.write { transaction in
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: transaction.delete(.integer(Int64(id)))
            case 1: transaction.upsert(Post(id: id, createdAt: Int.random(in: 1...1500, using: &generator), title: "m"))
            default: transaction.upsert(Post.numbered(id))
            }
        }
    }

    @Test(
        "P44: random writes race paging; every update is ordered with unique ids, and the list ends equal to the store",
        arguments: listStoreKinds)
    func p44WritesRacePaging(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list()
        let log = UpdateLog(list)
        let (ordered, observation) = watchOrder(list)
        defer { observation.dispose() }
        let store = setup.fixture
        let scheduler = setup.scheduler
        raceFromBarrier(threads: 2) { thread in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<150 {
                if thread == 0 {
                    try? Self.randomWrite(store, &generator)
                    scheduler.advance(by: .milliseconds(5))
                } else {
                    let count = list.items.value.count
                    list.preload(index: count > 0 ? Int.random(in: 0..<count, using: &generator) : 0)
                }
            }
        }
        scheduler.advance(by: .milliseconds(16))
        #expect(log.failures.isEmpty)
        #expect(ordered.value)
        let stored = try store.walk("feed", pageSize: 50)
        #expect(list.ids == Array(stored.prefix(list.ids.count)))
    }

    @Test(
        "P45: 4 threads commit single-row transactions; one reload at a time, and the list ends equal to the store",
        arguments: listStoreKinds)
    func p45WritersNeverRunTwoReloads(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(pageSize: 30)
        let log = UpdateLog(list)
        let store = setup.fixture
        let scheduler = setup.scheduler
        raceFromBarrier(threads: 4) { thread in
            for round in 0..<100 {
                let id = 71 + (thread * 7 + round) % 30
                _ = try? store.write { transaction in
                    transaction.upsert(Post(id: id, createdAt: 10 * id, title: "\(thread)-\(round)"))
                }
                if thread == 0 { scheduler.advance(by: .milliseconds(4)) }
            }
        }
        scheduler.advance(by: .milliseconds(16))
        #expect(setup.probe.maxConcurrentReads == 1)
        #expect(log.failures.isEmpty)
        #expect(list.items.value.map(\.title) == (try store.page(of: "feed", .first, limit: 30).rows.map(\.title)))
    }

    @Test(
        "P47: random writes race paging at both ends; every update is ordered with unique ids",
        arguments: listStoreKinds)
    func p47WritesRaceBothEnds(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(
            openingAt: .after(try setup.fixture.page(of: "feed", .first, limit: 50).entries.last!.cursor))
        let log = UpdateLog(list)
        let (ordered, observation) = watchOrder(list)
        defer { observation.dispose() }
        let store = setup.fixture
        let scheduler = setup.scheduler
        raceFromBarrier(threads: 3) { thread in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<100 {
                switch thread {
                case 0:
                    try? Self.randomWrite(store, &generator)
                    scheduler.advance(by: .milliseconds(5))
                case 1: list.loadNextPage()
                default: list.loadPreviousPage()
                }
            }
        }
        scheduler.advance(by: .milliseconds(16))
        #expect(log.failures.isEmpty)
        #expect(ordered.value)
        #expect(Set(list.ids).count == list.ids.count)
    }

    @Test(
        "P48: the first write races the list's construction; the list always ends up showing it",
        arguments: listStoreKinds)
    func p48FirstWriteRacesConstruction(kind: StoreKind) throws {
        for _ in 0..<20 {
            let setup = try StoreListSetup(kind, seed: nil)
            let made = Locked<PostList?>(nil)
            let store = setup.fixture
            raceFromBarrier(threads: 2) { thread in
                if thread == 0 {
                    made.value = setup.list()
                } else {
                    try? store.seed(1...20)
                }
            }
            setup.scheduler.advance(by: .milliseconds(16))
            let list = try #require(made.value)
            // Its first page, or (when the list read the empty store first) the whole collection.
            #expect(list.ids == Array((11...20).reversed()) || list.ids == Array((1...20).reversed()))
        }
    }

    @Test(
        "P54: writers star and rename posts; both lists end with equal rows, L2 the starred rows",
        arguments: listStoreKinds)
    func p54WritersKeepBothListsAgreeing(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let feed = setup.list(pageSize: 50)
        let starred = setup.list("starred", pageSize: 50)
        let store = setup.fixture
        let scheduler = setup.scheduler
        raceFromBarrier(threads: 2) { thread in
            var generator = SystemRandomNumberGenerator()
            for round in 0..<100 {
                let id = Int.random(in: 60...100, using: &generator)
                _ = try? store.write { transaction in
                    transaction.upsert(
                        Post(
                            id: id, createdAt: 10 * id, title: "\(thread)-\(round)",
                            starred: Bool.random(using: &generator)))
                }
                if thread == 0 { scheduler.advance(by: .milliseconds(4)) }
            }
        }
        scheduler.advance(by: .milliseconds(16))
        while case .started = starred.loadNextPage() {}
        let feedRows = Dictionary(uniqueKeysWithValues: feed.items.value.map { ($0.id, $0) })
        #expect(starred.items.value.allSatisfy { shown in feedRows[shown.id].map { $0 == shown } ?? true })
        #expect(starred.ids == (try store.walk("starred", pageSize: 50)))
    }
}
