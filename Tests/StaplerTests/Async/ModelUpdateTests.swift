import Observation
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Observation model updates")
@MainActor
struct ModelUpdateTests {
    typealias Model = PagingModel<Int, Int, String, Response, ServerError>

    /// A model over a two-ended list of 1,000 rows showing its first page, rows 500..<510.
    func openedAt500(_ server: TwoEndedServer) async -> Model {
        let model = Model(offsetPaginator(server, initialKey: 500))
        synchronously { model.paginator.refresh() }
        answer(server.last, total: 1_000)
        await model.settled()
        return model
    }

    /// Whether `update`'s change turns `before` into the model's rows.
    func describes(_ update: ModelUpdate?, from before: [Int], to model: Model) -> Bool {
        guard let update else { return false }
        return Mirror<Int>.apply(update.change, to: before, giving: Array(model.items)) == Array(model.items)
    }

    @Test("P38: a refresh around a row gives the model an update whose anchor keeps that row")
    func P38_aroundKeepsTheAnchor() async {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        let model = PagingModel(paginator)
        synchronously { paginator.refresh() }
        answer(server.last, ids: 0..<10, total: 200)
        for _ in 1..<8 {
            synchronously { paginator.loadNextPage() }
            answer(server.last, ids: server.last!.key..<server.last!.key + 10, total: 200)
        }
        await model.settled()
        #expect(model.items.count == 80 && model.items[45].id == 45)
        let shown = model.lastUpdate?.id ?? 0
        synchronously { paginator.refresh(.around(index: 45, minimumCount: 30)) }
        // The server deleted items 0-4: every offset now starts 5 items later.
        for key in [40, 30, 50] {
            #expect(server.last?.key == key)
            answer(server.last, ids: key + 5..<key + 15, total: 195)
        }
        await model.settled()
        #expect(model.items.map(\.id) == Array(35..<65))
        #expect(model.lastUpdate?.id == shown + 1)
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 45, to: 10))
        #expect(model.items[10].id == 45, "the row the refresh was around")
    }

    @Test("P38: a page prepended gives an update whose anchor keeps the first row shown")
    func P38_prependKeepsTheFirstRow() async {
        let server = TwoEndedServer()
        let model = await openedAt500(server)
        synchronously { model.paginator.loadPreviousPage() }
        answer(server.last, total: 1_000)
        #expect(model.items.first == 500, "not applied before the model's turn")
        await model.settled()
        #expect(model.lastUpdate?.change == .inserted(0..<10))
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 0, to: 10))
        #expect(model.items[10] == 500)
        synchronously { model.paginator.loadNextPage() }
        answer(server.last, total: 1_000)
        await model.settled()
        #expect(model.lastUpdate?.change == .appended(20..<30))
        #expect(model.lastUpdate?.anchor == nil, "rows below the ones shown move nothing")
    }

    @Test("P38: changes coalesced into one turn give one update, from the rows shown to the rows shown now")
    func P38_coalescedUpdate() async {
        let server = TwoEndedServer()
        let model = await openedAt500(server)
        let (update, applied) = (model.lastUpdate?.id ?? 0, model.snapshotsApplied)
        var before = Array(model.items)
        for _ in 0..<2 {
            synchronously { model.paginator.loadPreviousPage() }
            answer(server.last, total: 1_000)
        }
        await model.settled()
        #expect(model.snapshotsApplied == applied + 1, "four snapshots in one turn")
        #expect(model.lastUpdate?.id == update + 1)
        #expect(model.lastUpdate?.change == .inserted(0..<20))
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 0, to: 20), "the first row shown, not the one between")
        #expect(model.items[20] == 500)
        #expect(describes(model.lastUpdate, from: before, to: model))

        before = Array(model.items)
        for _ in 0..<2 {
            synchronously { model.paginator.loadNextPage() }
            answer(server.last, total: 1_000)
        }
        await model.settled()
        #expect(model.lastUpdate?.id == update + 2)
        #expect(model.lastUpdate?.change == .appended(30..<50))
        #expect(describes(model.lastUpdate, from: before, to: model))

        // An edit, then a page prepended: no single change, but the first row shown is followed through both.
        before = Array(model.items)
        #expect(model.remove(at: 3) == .applied)
        synchronously { model.paginator.loadPreviousPage() }
        answer(server.last, total: 1_000)
        await model.settled()
        #expect(model.lastUpdate?.id == update + 3)
        #expect(model.lastUpdate?.change == .reloaded)
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 0, to: 10))
        #expect(model.items[10] == before[0])
        #expect(describes(model.lastUpdate, from: before, to: model))
    }

    @Test("P38: the anchor of a refresh around a row is followed back through an edit made in the same turn")
    func P38_aroundAfterAnEdit() async {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        let model = PagingModel(paginator)
        synchronously { paginator.refresh() }
        answer(server.last, ids: 0..<10, total: 200)
        synchronously { paginator.loadNextPage() }
        answer(server.last, ids: 10..<20, total: 200)
        await model.settled()
        let before = Array(model.items.map(\.id))
        #expect(paginator.remove(at: 0) == .applied)
        synchronously { paginator.refresh(.around(index: 4)) }
        #expect(server.keys.last == 0, "row 4 is item 5, on the first page")
        answer(server.last, ids: 0..<10, total: 200)
        await model.settled()
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 5, to: 5), "row 5 shown is row 4 after the removal")
        #expect(model.items[5].id == before[5])
    }
}
