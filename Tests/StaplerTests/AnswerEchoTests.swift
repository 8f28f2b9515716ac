import Reactive
import Stapler
import TestSupport
import Testing

@Suite("An answered load's end costs no transition")
struct AnswerEchoTests {
    @Test(
        "P12: a page from a producer with a run core costs one transition; its end and the disposal's interruption none"
    )
    func P12_runCorePageCostsOneTransition() {
        let observers = Locked<[Signal<Response, ServerError>.Observer]>([])
        let ended = Locked(0)
        let paginator = Paginator(
            source: .offset { _, _, _ in
                SignalProducer<Response, ServerError> { observer, lifetime in
                    observers.append(observer)
                    lifetime.observeEnded { ended.increment(by: 1) }
                }
            },
            pageSize: 10)
        paginator.refresh()
        var costs: [UInt64] = []
        for index in 0..<3 {
            if index > 0 { paginator.loadNextPage() }
            #expect(observers.value.count == index + 1)
            let before = paginator.machineTransitions
            // The page, with no completion: the paginator disposes the request, whose run is interrupted.
            observers.value[index].send(value: page(10 * index, 10, total: 100))
            #expect(ended.value == index + 1, "the answered request is disposed")
            observers.value[index].sendCompleted()
            costs.append(paginator.machineTransitions - before)
        }
        #expect(paginator.items.value.count == 30)
        #expect(costs == [1, 1, 1], "transitions per answered page: \(costs)")
    }

    @Test("P12: a page from an async source costs one transition for its answer")
    func P12_asyncPageCostsOneTransition() async {
        let paginator = Paginator(
            source: .offset { (offset, size, _: Void) async throws(ServerError) in page(offset, size, total: 1_000) },
            pageSize: 10)
        var costs: [UInt64] = []
        for index in 0..<20 {
            let before = paginator.machineTransitions
            let outcome = index == 0 ? await paginator.refresh() : await paginator.loadNextPage()
            #expect(outcome == .loaded)
            await paginator.settled()
            costs.append(paginator.machineTransitions - before)
        }
        #expect(paginator.items.value.count == 200)
        #expect(costs.allSatisfy { $0 == 2 }, "transitions per awaited page (its start, its answer): \(costs)")
    }
}
