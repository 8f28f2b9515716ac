import Dispatch
import Observation
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// The main-actor model of a transformed list hops, coalesces, reads indices against its own rows, and is
/// freed with its list and paginator.
@Suite("Transformed model")
@MainActor
struct TransformedModelTests {
    typealias Model = TransformedModel<TRow, ServerError>
    static let steps = TestTransform(steps: [.skipThrees, .double, .decades], footer: { .footer($0.status) })

    /// Whether `update`'s change turns `before` into `model`'s rows.
    func describes(_ update: ModelUpdate?, from before: [TRow], to model: Model) -> Bool {
        guard let update else { return false }
        let rows = Array(model.items)
        return Mirror<TRow>.apply(update.change, to: before, giving: rows) == rows
    }

    @Test(
        "9.9: with loads and answers on 8 threads, the settled model's rows are the transform of the paginator's last snapshot"
    )
    func orderOnceSettled() async throws {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 500)
        let model = Model(paginator, transform: Self.steps.transform)
        synchronously { paginator.refresh() }
        answer(server.last, total: 1_000, on: DispatchQueue(label: "answers"))
        try await model.settled(timeout: .seconds(30))
        #expect(Array(model.items) == Self.steps.naive(paginator.snapshot.value))
        let done = Locked(0)
        let reading = DispatchSemaphore(value: 0)
        for thread in 0..<8 {
            DispatchQueue.global().async {
                reading.wait()
                for step in 0..<60 {
                    if thread < 4 {
                        if let request = server.pending.randomElement() { answer(request, total: 1_000) }
                    } else if (thread + step) % 2 == 0 {
                        synchronously { paginator.loadNextPage() }
                    } else {
                        synchronously { paginator.loadPreviousPage() }
                    }
                }
                done.increment(by: 1)
            }
        }
        for _ in 0..<8 { reading.signal() }
        while done.value < 8 { await Task.yield() }
        while let request = server.pending.first { answer(request, total: 1_000) }
        try await model.settled(timeout: .seconds(30))
        #expect(Array(model.items) == Self.steps.naive(paginator.snapshot.value))
        #expect(Array(model.items) == Array(model.list.items.value))
        #expect(paginator.items.value.count > 10, "the threads loaded pages")
    }

    @Test(
        "9.9: updates delivered before the main actor runs are applied in one turn, as one update from the rows shown")
    func coalescing() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let model = Model(paginator, transform: Self.steps.transform)
        await model.settled()
        var before = Array(model.items)
        synchronously { paginator.refresh() }
        answer(server.last, total: 100)
        synchronously { paginator.loadNextPage() }
        answer(server.last, total: 100)
        #expect(Array(model.items) == before, "nothing changes before the model's turn")
        await model.settled()
        #expect(model.lastUpdate?.id == 1, "four publications, one update")
        #expect(Array(model.items) == Self.steps.naive(paginator.snapshot.value))
        #expect(describes(model.lastUpdate, from: before, to: model))

        before = Array(model.items)
        for _ in 0..<2 {
            synchronously { paginator.loadNextPage() }
            answer(server.last, total: 100)
        }
        await model.settled()
        #expect(model.lastUpdate?.id == 2)
        #expect(Array(model.items) == Self.steps.naive(paginator.snapshot.value))
        #expect(describes(model.lastUpdate, from: before, to: model))

        before = Array(model.items)
        synchronously { paginator.loadNextPage() }
        answer(server.last, total: 100)
        await model.settled()
        #expect(model.lastUpdate?.id == 3)
        #expect(describes(model.lastUpdate, from: before, to: model))
    }

    @Test("9.9: a page prepended above the rows shown gives an update whose anchor keeps the first row shown")
    func prependAnchor() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 500)
        let model = Model(paginator, transform: TestTransform(steps: [.skipThrees]).transform)
        synchronously { paginator.refresh() }
        answer(server.last, total: 1_000)
        await model.settled()
        let first = model.items.first
        synchronously { paginator.loadPreviousPage() }
        answer(server.last, total: 1_000)
        await model.settled()
        // 490..<500 without 492, 495 and 498: seven rows above the first row shown.
        #expect(model.lastUpdate?.anchor == ItemsAnchor(from: 0, to: 7))
        #expect(model.items[7] == first)
    }

    @Test("9.9: preload reads a row of the rows the model shows, moved by the rows prepended since")
    func preloadReadsTheRowsShown() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 500, prefetchDistance: 2)
        let model = Model(paginator, transform: TestTransform(steps: [.skipThrees]).transform)
        synchronously { paginator.refresh() }
        answer(server.last, total: 1_000)
        await model.settled()
        synchronously { paginator.loadPreviousPage() }
        answer(server.last, total: 1_000)
        // The model still shows 500..<510; the paginator holds 490..<510.
        #expect(model.items.last == .item(509))
        let requests = server.requests.count
        model.preload(index: model.items.count - 1)
        #expect(server.requests.count == requests + 1)
        #expect(server.keys.last == 510, "item 509 is near the bottom of the list, wherever the prepend moved it")
    }

    @Test("9.9: releasing the model frees it, its transformed list and its paginator, and disposes the load in flight")
    func release() {
        let server = TwoEndedServer()
        let survivors = survivors {
            let paginator = offsetPaginator(server)
            let model = Model(paginator, transform: Self.steps.transform)
            synchronously { paginator.refresh() }
            answer(server.last, total: 35)
            synchronously { paginator.loadNextPage() }
            return [(model, "model"), (model.list, "transformed list"), (paginator, "paginator")]
        }
        #expect(survivors.isEmpty, "\(survivors)")
        #expect(server.last?.isDisposed == true)
    }
}
