import Dispatch
import Observation
import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Observation model")
@MainActor
struct PagingModelTests {
    typealias Model = PagingModel<Int, Int, String, Response, ServerError>

    @Test("P38: answers from a background queue reach the model on the main actor; once quiet it equals the paginator")
    func P38_backgroundAnswers() async throws {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let model = Model(paginator)
        synchronously { paginator.refresh() }
        let background = DispatchQueue(label: "answers")
        answer(server.last, total: 100, on: background)
        for _ in 0..<2 {
            synchronously { paginator.loadNextPage() }
            answer(server.last, total: 100, on: background)
        }
        try await model.settled(timeout: .seconds(30))
        #expect(model.items.count == 30)
        #expect(model.items == paginator.items.value)
        #expect(model.loadStates == paginator.loadStates.value)
        #expect(model.snapshotsApplied >= 1)
    }

    @Test("P38: every change a view observes comes with the matching load states (never page 3's rows still loading)")
    func P38_neverTorn() async throws {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let model = Model(paginator)
        let tracker = Tracker(model)
        tracker.track()
        synchronously { paginator.refresh() }
        answer(server.last, total: 40)
        for _ in 0..<3 {
            synchronously { paginator.loadNextPage() }
            answer(server.last, total: 40, on: DispatchQueue(label: "bg"))
            await Task.yield()
        }
        try await model.settled(timeout: .seconds(30))
        #expect(model.items.count == 40)
        #expect(tracker.torn.isEmpty, "\(tracker.torn)")
        #expect(tracker.checks >= 1)
    }

    @Test("P38: releasing the model releases the paginator and disposes its load in flight")
    func P38_release() async {
        let server = TwoEndedServer()
        weak var weakModel: Model?
        weak var weakPaginator: Paginator<Int, Int, String, Response, ServerError>?
        do {
            let model = Model(offsetPaginator(server))
            weakModel = model
            weakPaginator = model.paginator
            synchronously { model.paginator.refresh() }
        }
        #expect(weakModel == nil && weakPaginator == nil)
        #expect(server.requests.first?.disposeCount == 1)
    }

    @Test("P38: 8 background threads load and answer while the main actor reads; then the model equals the paginator")
    func P38_racingThreads() async throws {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 500)
        let model = Model(paginator)
        synchronously { paginator.refresh() }
        answer(server.last, total: 1_000)
        let done = Locked(0)
        // The threads start once the main actor reads: on a busy machine they could otherwise all end
        // before its first read.
        let reading = DispatchSemaphore(value: 0)
        for thread in 0..<8 {
            DispatchQueue.global().async {
                reading.wait()
                for step in 0..<125 {
                    if thread < 4 {
                        if let request = server.pending.randomElement() { answer(request, total: 1_000) }
                    } else if (thread + step) % 2 == 0 {
                        paginator.loadNextPage()
                    } else {
                        paginator.loadPreviousPage()
                    }
                }
                done.increment(by: 1)
            }
        }
        var rowCounts: Set<Int> = [model.items.count]
        for _ in 0..<8 { reading.signal() }
        while done.value < 8 {
            rowCounts.insert(model.items.count)
            await Task.yield()
        }
        while let request = server.pending.first { answer(request, total: 1_000) }
        try await model.settled(timeout: .seconds(30))
        #expect(model.items == paginator.items.value)
        #expect(model.loadStates == paginator.loadStates.value)
        #expect(rowCounts.allSatisfy { $0 % 10 == 0 }, "the model showed a part of a page: \(rowCounts)")
    }
}

/// Re-reads a model after each change a view would observe, and records any torn read.
@MainActor
final class Tracker {
    let model: PagingModelTests.Model
    var torn: [String] = []
    var checks = 0

    init(_ model: PagingModelTests.Model) {
        self.model = model
    }

    /// Tracks the rows and the load states; after each change, checks that they come from one snapshot.
    func track() {
        withObservationTracking {
            _ = model.items
            _ = model.loadStates
        } onChange: {
            Task { @MainActor in
                self.check()
                self.track()
            }
        }
    }

    private func check() {
        checks += 1
        let count = model.items.count
        // Pages of 10 from a list of 40: a full page's rows are never shown while that page still loads.
        if count > 0, count % 10 == 0, model.loadStates.append.isLoading, model.state != .loadingMore {
            torn.append("\(count) rows, append loading, state \(model.state)")
        }
        if model.isEndReached != (count == 40) { torn.append("end \(model.isEndReached) with \(count) rows") }
        if case .content(let content) = model.presentation, content.itemCount != count {
            torn.append("presentation of \(content.itemCount) rows with \(count) rows")
        }
    }
}
