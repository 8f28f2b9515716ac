import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// A transformed list delivers in step with its paginator, lets its observers call back, and is freed
/// with it.
@Suite("Transformed list: order, reentrancy, lifetime")
struct TransformOrderingTests {
    static let steps = TestTransform(steps: [.skipThrees, .decades], footer: { .footer($0.status) })

    /// Watches the paginator from an observer registered before the transformed list existed (so it is
    /// notified before any observer the list could register), recording each time the list it reads is
    /// not the transform of the snapshot it hears.
    static func watchEarly(
        _ paginator: Paginator<Int, Int, String, Response, ServerError>, _ list: Locked<TransformedList<TRow>?>
    ) -> Locked<[String]> {
        let mismatches = Locked<[String]>([])
        paginator.snapshot.signal.observeValues { snapshot in
            guard let list = list.value else { return }
            let shown = Array(list.items.value)
            let expected = steps.naive(snapshot)
            if shown != expected { mismatches.append("heard \(Array(snapshot.items)), read \(shown)") }
        }
        return mismatches
    }

    @Test("9.3: an observer of the paginator registered first reads the transformed list of the snapshot it hears")
    func orderWithEarlierObservers() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let list = Locked<TransformedList<TRow>?>(nil)
        let mismatches = Self.watchEarly(paginator, list)
        list.value = paginator.transformed(by: Self.steps.transform)
        let mirror = TransformMirror(list.value!, of: paginator, Self.steps)
        paginator.refresh()
        answer(server.last, total: 35)
        for _ in 0..<3 {
            paginator.loadNextPage()
            answer(server.last, total: 35)
        }
        _ = paginator.remove(at: 1)
        #expect(mismatches.value.isEmpty, "\(mismatches.value)")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
        #expect(mirror.delivered > 5)
        list.value = nil  // the early observer holds the box: let the list and the paginator go
    }

    @Test("9.3: with a delivery scheduler nothing changes until it runs, then both lists change in order")
    func orderOnAScheduler() {
        let scheduler = TestScheduler()
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, deliveringOn: scheduler)
        let list = Locked<TransformedList<TRow>?>(nil)
        let mismatches = Self.watchEarly(paginator, list)
        list.value = paginator.transformed(by: Self.steps.transform)
        let mirror = TransformMirror(list.value!, of: paginator, Self.steps)
        paginator.refresh()
        answer(server.last, total: 35)
        #expect(Array(list.value!.items.value) == [.footer(.idle)], "nothing changes before the scheduler runs")
        scheduler.run()
        #expect(list.value!.items.value.count == 8)
        paginator.loadNextPage()
        answer(server.last, total: 35)
        paginator.loadNextPage()
        answer(server.last, total: 35)
        #expect(list.value!.items.value.count == 8)
        scheduler.run()
        #expect(Array(list.value!.items.value) == Self.steps.naive(paginator.snapshot.value))
        #expect(mirror.changes.count == 5, "a reload, then per page the footer's loading, then rows and footer")
        #expect(mismatches.value.isEmpty, "\(mismatches.value)")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
        expectNoPendingWork(scheduler)
        list.value = nil  // the early observer holds the box: let the list and the paginator go
    }

    @Test("9.4: an observer of the transformed list may load, refresh and edit from inside its notification")
    func reentrancy() {
        let transform = TestTransform(steps: [.skipThrees, .decades])
        let paginator = Paginator(
            source: .offset { offset, size, _ in
                SignalProducer<Response, ServerError>(value: page(offset, max(0, min(size, 60 - offset)), total: 60))
            }, pageSize: 10, query: "q")
        let list = paginator.transformed(by: transform.transform)
        let mirror = TransformMirror(list, of: paginator, transform)
        let calls = Locked(0)
        list.updates.observeValues { update in
            calls.increment(by: 1)
            switch calls.value {
            case 1...4: _ = paginator.loadNextPage()
            case 5: _ = paginator.replace(at: 2, with: 1_000)
            case 6: _ = paginator.refresh()
            default: break
            }
        }
        paginator.refresh()
        #expect(calls.value >= 7)
        #expect(Array(list.items.value) == transform.naive(paginator.snapshot.value))
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("9.6: releasing the transformed list and the paginator frees both, with a load in flight")
    func leaks() {
        let server = TwoEndedServer()
        let survivors = survivors {
            let paginator = offsetPaginator(server)
            let list = paginator.transformed(by: Self.steps.transform)
            let heard = Locked(0)
            list.updates.observeValues { _ in heard.increment(by: 1) }
            paginator.refresh()
            answer(server.last, total: 35)
            paginator.loadNextPage()
            #expect(heard.value == 2)
            return [(paginator, "paginator"), (list, "transformed list")]
        }
        #expect(survivors.isEmpty, "\(survivors)")
        #expect(server.last?.isDisposed == true)
    }

    @Test("9.6: a released transformed list completes its updates and stops transforming")
    func releasedListStops() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let maps = Locked(0)
        let completed = Locked(false)
        do {
            let list = paginator.transformed {
                $0.map { value -> Int in
                    maps.increment(by: 1); return value
                }
            }
            list.updates.observeCompleted { completed.value = true }
            paginator.refresh()
            answer(server.last, total: 35)
        }
        #expect(completed.value)
        paginator.loadNextPage()
        answer(server.last, total: 35)
        #expect(maps.value == 10, "the second page is not transformed for a list nobody holds")
    }
}
