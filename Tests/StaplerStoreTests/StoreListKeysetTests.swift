import Reactive
import Stapler
import Testing

/// Lists over Store S (posts 1…100, newest first, pages of 10) that open at the top and append once
/// (100…81), then meet writes above, inside and below their window.
@Suite struct StoreListKeysetTests {
    /// A list showing 100…81, with its update log.
    private func opened(_ setup: StoreListSetup) -> (PostList, UpdateLog) {
        let list = setup.list()
        list.loadNextPage()
        #expect(list.ids == Array((81...100).reversed()))
        return (list, UpdateLog(list))
    }

    @Test(
        "P44: posts inserted above arrive as one insertion at 0..<5; the next page is 80…71", arguments: listStoreKinds)
    func p44InsertAboveIsOneInsertion(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        try setup.fixture.write { transaction in transaction.upsert(contentsOf: (101...105).map(Post.numbered)) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.difference == ItemsDifference(removals: [], insertions: Array(0..<5)))
        list.loadNextPage()
        #expect(list.ids == Array((71...105).reversed()))
        #expect(log.failures.isEmpty)
    }

    @Test(
        "P44: deleting shown posts 95 and 85 is one update of two removals; the next page is 80…71",
        arguments: listStoreKinds)
    func p44DeleteInsideIsOneUpdate(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        try setup.fixture.write { transaction in
            transaction.delete(95)
            transaction.delete(85)
        }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.difference == ItemsDifference(removals: [5, 15], insertions: []))
        list.loadNextPage()
        #expect(list.ids == Array((71...100).reversed()).filter { $0 != 95 && $0 != 85 })
        #expect(log.failures.isEmpty)
    }

    @Test("P44: posts 41…50 tied on createdAt are each shown once by a list of pages of 3", arguments: listStoreKinds)
    func p44TiedPostsShowOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        try setup.fixture.write { transaction in
            for id in 41...50 { transaction.upsert(Post(id: id, createdAt: 5, title: "t\(id)")) }
        }
        let list = setup.list(pageSize: 3)
        list.loadToEnd()
        #expect(list.ids == Array((51...100).reversed()) + Array((1...40).reversed()) + Array((41...50).reversed()))
        #expect(list.isEndReached.value)
    }

    @Test("P44: posts with no createdAt come after every dated post, then the list ends", arguments: listStoreKinds)
    func p44NullsComeLastInTheList(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        try setup.fixture.write { transaction in
            for id in 1...5 { transaction.upsert(Post(id: id, createdAt: nil, title: "t\(id)")) }
        }
        let list = setup.list(pageSize: 10)
        list.loadToEnd()
        #expect(list.ids == Array((6...100).reversed()) + Array((1...5).reversed()))
        #expect(list.isEndReached.value)
    }

    @Test(
        "P44: a post moved to the top shows at 0 once; a shown post moved down leaves and shows once further on",
        arguments: listStoreKinds)
    func p44MovedPostsShowOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let (list, log) = opened(setup)
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 60, createdAt: 2000, title: "t60")) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.last?.difference == ItemsDifference(removals: [], insertions: [0]))
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 85, createdAt: 100, title: "t85")) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 2)
        #expect(log.updates.last?.difference == ItemsDifference(removals: [16], insertions: []))
        list.loadToEnd()
        let ids = list.ids
        #expect(ids.count == 100)
        #expect(Set(ids).count == 100)
        #expect(ids.firstIndex(of: 85) == ids.firstIndex(of: 10).map { $0 - 1 })
        #expect(log.failures.isEmpty)
    }

    @Test(
        "P44: a window whose top did not end shows no row inserted above it until a page above reaches it",
        arguments: listStoreKinds)
    func p44InsertAboveAnOpenTopWaitsForThePageAbove(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(openingAt: .last)
        #expect(list.ids == Array((1...10).reversed()))
        list.loadPreviousPage()
        #expect(list.ids == Array((1...20).reversed()))
        let log = UpdateLog(list)
        // Post 300 sorts at the top of the collection, far above the window; post 5 is renamed inside it.
        try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 300, createdAt: 3000, title: "t300"))
            transaction.upsert(Post(id: 5, createdAt: 50, title: "renamed"))
        }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.difference == ItemsDifference(removals: [], insertions: [], updates: [15]))
        while case .started = list.loadPreviousPage() {}
        #expect(list.ids == [300] + Array((1...100).reversed()))
        #expect(log.failures.isEmpty)
    }

    @Test(
        "P44: with a memory bound the list drops pages and pages them in again, each row once",
        arguments: listStoreKinds)
    func p44MemoryBoundKeepsEachRowOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(options: PagingOptions(maxPages: 3))
        list.loadToEnd()
        #expect(list.ids == Array((1...30).reversed()))
        try setup.fixture.write { transaction in transaction.delete(15) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(list.ids == Array((1...30).reversed()).filter { $0 != 15 })
        while case .started = list.loadPreviousPage() {}
        #expect(list.ids == Array((71...100).reversed()))
    }

    @Test(
        "P44: rows written where a memory bound dropped pages show once when scrolling back reaches them",
        arguments: listStoreKinds)
    func p44WritesAmongDroppedPagesShowOnce(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(options: PagingOptions(maxPages: 3))
        list.loadToEnd()
        #expect(list.ids == Array((1...30).reversed()))
        // Among the dropped pages: post 300 between 95 and 94, post 85 moved between 50 and 49, post 75 gone.
        try setup.fixture.write { transaction in
            transaction.upsert(Post(id: 300, createdAt: 945, title: "t300"))
            transaction.upsert(Post(id: 85, createdAt: 495, title: "t85"))
            transaction.delete(75)
        }
        setup.scheduler.advance(by: .milliseconds(16))
        while case .started = list.loadPreviousPage() { list.preload(index: 0) }
        let stored = try setup.fixture.walk("feed", pageSize: 50)
        #expect(list.ids.first == 100)
        #expect(list.ids == Array(stored.prefix(list.ids.count)))
        #expect(list.ids.contains(300))
    }
}
