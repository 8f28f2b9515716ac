import Reactive
import Stapler
import Testing

/// Two lists over one store: L1, every post newest first (20 loaded); L2, the starred posts by title
/// (posts 10, 20, 30, 40 and 50, all loaded). One write updates both.
@Suite struct StoreListSharedRowTests {
    private func lists(_ setup: StoreListSetup) throws -> (PostList, PostList) {
        try setup.fixture.write { transaction in
            for id in [10, 20, 30, 40, 50] {
                transaction.upsert(Post(id: id, createdAt: 10 * id, title: "t\(id)", starred: true))
            }
        }
        let feed = setup.list(pageSize: 20)
        let starred = setup.list("starred", pageSize: 20)
        #expect(feed.ids == Array((81...100).reversed()))
        #expect(starred.ids == [10, 20, 30, 40, 50])
        return (feed, starred)
    }

    @Test(
        "P54: starring and renaming post 95 updates it in L1 and inserts it at the top of L2, at one version",
        arguments: listStoreKinds)
    func p54OneWriteUpdatesBothLists(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (feed, starred) = try lists(setup)
        let feedLog = UpdateLog(feed)
        let starredLog = UpdateLog(starred)
        let version = try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 95, createdAt: 950, title: "A first", starred: true))
        }.version
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(feedLog.updates.map(\.difference) == [ItemsDifference(removals: [], insertions: [], updates: [5])])
        #expect(starredLog.updates.map(\.difference) == [ItemsDifference(removals: [], insertions: [0])])
        #expect(feed.snapshot.value.metadata?.version == version)
        #expect(starred.snapshot.value.metadata?.version == version)
        #expect(feed.items.value[5].title == "A first")
        #expect(starred.items.value[0].title == "A first")

        try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 95, createdAt: 950, title: "A first", starred: false))
        }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(starredLog.updates.last?.difference == ItemsDifference(removals: [0], insertions: []))
        #expect(feedLog.updates.last?.difference == ItemsDifference(removals: [], insertions: [], updates: [5]))
        #expect(starred.ids == [10, 20, 30, 40, 50])
        #expect(feedLog.failures.isEmpty && starredLog.failures.isEmpty)
    }

    @Test("P54: a like on a row both lists show is an update in each, never a reload", arguments: listStoreKinds)
    func p54LikeIsAnUpdateInEachList(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 95, createdAt: 950, title: "A first", starred: true))
        }
        let (feed, starred) = (setup.list(pageSize: 20), setup.list("starred", pageSize: 20))
        let feedLog = UpdateLog(feed)
        let starredLog = UpdateLog(starred)
        try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 95, createdAt: 950, title: "A first", starred: true, likes: 1))
        }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(
            feedLog.updates.map(\.change) == [.difference(ItemsDifference(removals: [], insertions: [], updates: [5]))])
        #expect(
            starredLog.updates.map(\.change) == [
                .difference(ItemsDifference(removals: [], insertions: [], updates: [0]))
            ])
    }

    @Test("P54: a list with no observer reads nothing, then reads once when observed", arguments: listStoreKinds)
    func p54UnobservedListReadsOnceWhenObserved(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let hidden = StoreProbe<Post>(setup.fixture)
        let list = setup.list(observed: false, through: hidden)
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 95, createdAt: 950, title: "renamed")) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(hidden.reads.isEmpty)
        #expect(list.ids.isEmpty)
        list.setObserved(true)
        #expect(hidden.reads.count == 1)
        #expect(list.items.value[5].title == "renamed")

        list.setObserved(false)
        for round in 1...3 {
            try setup.fixture.write { transaction in
                transaction.upsert(Post(id: 95, createdAt: 950, title: "round \(round)"))
            }
            setup.scheduler.advance(by: .milliseconds(16))
        }
        #expect(hidden.reads.count == 1)
        list.setObserved(true)
        #expect(hidden.reads.count == 2)
        #expect(list.items.value[5].title == "round 3")
    }
}
