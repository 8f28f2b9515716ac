import Reactive
import Stapler
import TestSupport
import Testing

extension Post: Identifiable {}

/// Lists over Store S (posts 1…100, newest first, pages of 10) showing 100…81, with optimistic edits
/// pending while the store changes under them.
@Suite struct StoreListOptimisticTests {
    @Test(
        "P57: a failed removal over a store list comes back alone; a write and a page that landed since stay",
        arguments: listStoreKinds)
    func P57_rollbackOverStoreReloads(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list()
        list.loadNextPage()
        let log = UpdateLog(list)
        let mutations = ManualServer<Int, Post?, StoreError>()
        list.optimistic(.remove(id: 95), mutation: mutations.producer(95))
        #expect(log.updates.last?.change == .removed(5..<6))
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 93, createdAt: 930, title: "t93-new")) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(!list.ids.contains(95), "the removal stays over the store's reload")
        #expect(list.items.value.first { $0.id == 93 }?.title == "t93-new")
        list.loadNextPage()
        #expect(list.ids.count == 29)
        log.clear()
        mutations.last?.fail(.busy)
        #expect(log.updates.map(\.change) == [.inserted(5..<6)])
        #expect(list.ids == Array((71...100).reversed()))
        #expect(list.items.value.first { $0.id == 93 }?.title == "t93-new", "the write since is not undone")
        #expect(list.pendingEdits.value.isEmpty)
        #expect(log.failures.isEmpty)
    }

    @Test(
        "P56: a like over a store list stays through a write of its row, and the answer replaces it",
        arguments: listStoreKinds)
    func P56_likeOverStoreWrites(kind: StoreKind) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list()
        let log = UpdateLog(list)
        let mutations = ManualServer<Int, Post?, StoreError>()
        list.optimistic(.modify(id: 97) { $0.likes += 1 }, mutation: mutations.producer(97))
        #expect(list.items.value.first { $0.id == 97 }?.likes == 1)
        try setup.fixture.write { transaction in transaction.upsert(Post(id: 97, createdAt: 970, title: "t97-new")) }
        setup.scheduler.advance(by: .milliseconds(16))
        #expect(list.items.value.first { $0.id == 97 } == Post(id: 97, createdAt: 970, title: "t97-new", likes: 1))
        mutations.last?.succeed(Post(id: 97, createdAt: 970, title: "t97-new", likes: 1))
        #expect(list.items.value.first { $0.id == 97 }?.likes == 1)
        #expect(list.pendingEdits.value.isEmpty)
        #expect(log.failures.isEmpty)
    }
}
