import Reactive
import TestSupport
import Testing

@testable import Stapler

/// The engine's input that replaces the shown pages with pages read again together, and its checked
/// apply of an edge page: both decided in one transition with a caller's check.
@Suite struct ShownPagesInputTests {
    typealias List = Paginator<Int, Int, Void, Void, ServerError>

    /// A list of 0..<100 in pages of 10 whose pages from offset 20 on never answer.
    private func list() -> List {
        let source = PageSource<Int, Int, Void, Void, ServerError>(firstKey: 0) { request in
            guard request.key < 20 else { return .never }
            return SignalProducer(
                value: Page(items: Array(request.key..<request.key + 10), nextKey: request.key + 10))
        }
        let list = List(source: source, options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
        list.refresh()
        list.loadNextPage()
        return list
    }

    private func page(_ items: [Int], next: Int?) -> (key: Int, page: Page<Int, Int, Void>) {
        (items.first ?? 0, Page(items: items, nextKey: next))
    }

    @Test("replacing the shown pages publishes one keyed difference and starts no generation")
    func replacingPublishesOneKeyedDifference() {
        let list = list()
        let generation = list.snapshot.value.generation
        let updates = Locked<[ItemsChange]>([])
        let observation = list.updates.observeValues { updates.append($0.change) }
        defer { observation.dispose() }
        let shape = list.engine.shownListShape()
        #expect(shape.isShown && shape.topEnded && !shape.bottomEnded)
        let replaced = list.engine.replaceShownPages(
            [page([-1] + Array(0..<9), next: 9), page(Array(9..<19), next: 19)], ending: [], over: shape.token,
            if: { true })
        #expect(replaced)
        #expect(Array(list.items.value) == [-1] + Array(0..<19))
        #expect(updates.value == [ItemsChange.difference(ItemsDifference(removals: [19], insertions: [0]))])
        #expect(list.snapshot.value.generation == generation)
        #expect(list.pages.value == 2)
    }

    @Test("a replacement over a list that changed shape, or that its check refuses, changes nothing")
    func staleOrRefusedReplacementChangesNothing() {
        let list = list()
        let shape = list.engine.shownListShape()
        list.loadNextPage()  // a load in flight does not change the shape
        #expect(list.engine.shownListShape().token == shape.token)
        #expect(!list.engine.replaceShownPages([page([1], next: nil)], ending: [], over: shape.token, if: { false }))
        #expect(Array(list.items.value) == Array(0..<20))
        // A refresh starts a generation: its first page (0..<10) is another shape.
        list.refresh()
        #expect(!list.engine.replaceShownPages([page([1], next: nil)], ending: [], over: shape.token, if: { true }))
        #expect(Array(list.items.value) == Array(0..<10))
    }

    @Test("a refused edge page leaves its load in flight; a replacement that ends it applies at once")
    func refusedEdgePageWaitsForTheReplacement() throws {
        let list = list()
        list.loadNextPage()
        let shape = list.engine.shownListShape()
        let load = try #require(shape.edgeLoads.first)
        #expect(load.direction == .append && load.key == 20)
        let admitted = list.engine.receive(Page(items: Array(20..<30), nextKey: 30), from: load.ticket, if: { false })
        #expect(!admitted)
        #expect(list.loadStates.value.append.isLoading)
        #expect(Array(list.items.value) == Array(0..<20))
        let replaced = list.engine.replaceShownPages(
            [page(Array(0..<10), next: 10), page(Array(10..<20), next: 20), page(Array(20..<25), next: nil)],
            ending: [load.ticket], over: shape.token, if: { true })
        #expect(replaced)
        #expect(!list.loadStates.value.append.isLoading)
        #expect(list.isEndReached.value)
        #expect(Array(list.items.value) == Array(0..<25))
        // The load's own page, arriving late, is dropped.
        #expect(list.engine.receive(Page(items: [99], nextKey: nil), from: load.ticket, if: { true }))
        #expect(Array(list.items.value) == Array(0..<25))
    }
}
