import Observation
import Reactive
import Stapler
import TestSupport
import Testing

/// A `PagingModel`'s indices are read against `model.items`, which lags the paginator by a main-actor hop.
@Suite("Indices from a PagingModel")
@MainActor
struct ModelIndexTests {
    typealias Model = PagingModel<Int, Int, String, Response, ServerError>

    /// A model showing the page at offset 20 while a prepended page ([10, 20)) has reached the paginator
    /// but not yet the model (its main-actor hop has not run).
    func modelWithUnappliedPrepend() async -> (
        Model, Paginator<Int, Int, String, Response, ServerError>, TwoEndedServer
    ) {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 20)
        let model = Model(paginator)
        synchronously { paginator.refresh() }
        answer(server.last, total: 100)
        for _ in 0..<1_000 where model.items.count != 10 { await Task.yield() }
        synchronously { paginator.loadPreviousPage() }
        answer(server.last, total: 100)
        return (model, paginator, server)
    }

    @Test("an edit through the model hits the row model.items shows, not the paginator's newer row there")
    func modelEditsFollowItsItems() async {
        let (model, paginator, _) = await modelWithUnappliedPrepend()
        #expect(Array(model.items) == Array(20..<30))
        #expect(paginator.items.value.count == 20, "the paginator delivered the prepend; the model has not")
        #expect(model.insert(-1, at: 0) == .applied)
        #expect(model.remove(at: 0) == .applied)
        #expect(model.replace(at: 1, with: -21) == .applied)
        #expect(model.modify(at: 2) { $0 = -$0 } == .applied)
        #expect(model.remove(at: 0) == .rowGone)
        #expect(Array(paginator.items.value) == Array(10..<20) + [-1, -21, -22] + Array(23..<30))
    }

    @Test("the model's preload index is moved by the rows prepended since model.items, as the paginator's is")
    func modelPreloadFollowsItsItems() async {
        let (model, paginator, server) = await modelWithUnappliedPrepend()
        let requests = server.requests.count
        model.preload(index: 0)
        #expect(server.requests.count == requests, "row 0 of the model is row 10 now: far from the top")
        model.preload(index: 9)
        #expect(server.requests.count == requests + 1, "row 9 of the model is the paginator's last row")
        #expect(paginator.savedState?.lastShownRow == 19)
    }
}
