import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// A paginator's notifications form one ordered stream: while an observer is notified of a change,
/// every property holds exactly that change's values, and an action hears its outcome after it.
@Suite("Consistent notifications")
struct ConsistencyTests {
    @Test(
        "P14: while an observer is notified, every property holds that notification's values, whatever other threads do"
    )
    func P14_noTearingAcrossProperties() {
        for iteration in 0..<150 {
            let server = OffsetServer()
            let paginator = Paginator(
                source: .offset { offset, size, query in server.producer(offset + query * 1_000, size: size) },
                pageSize: 5, query: 0)
            let torn = Locked<[String]>([])
            paginator.snapshot.signal.observeValues { snapshot in
                let items = paginator.items.value
                let state = paginator.state.value
                let pages = paginator.pages.value
                let screen = paginator.presentation.value
                if items.count != snapshot.items.count || state.name != snapshot.state.name || pages != snapshot.pages
                    || screen != ListPresentation(snapshot)
                {
                    torn.append("notified \(snapshot.state) \(snapshot.items.count), read \(state) \(items.count)")
                }
            }
            paginator.refresh()
            server.last?.succeed(page(0, 5, total: 1_000))
            raceFromBarrier(threads: 4) { thread in
                for step in 0..<40 {
                    switch thread {
                    case 0 where step % 8 == 0: paginator.refresh(query: step % 3)
                    case 0, 1: paginator.loadNextPage()
                    default:
                        if let request = server.requests.last, !request.isDisposed {
                            if step % 9 == 0 {
                                request.fail(.timeout)
                            } else {
                                request.succeed(page(request.key % 1_000, 5, total: 1_000))
                            }
                        }
                        paginator.retry()
                    }
                }
            }
            #expect(torn.value.isEmpty, "iteration \(iteration): \(torn.value.prefix(3))")
        }
    }

    @Test("a first-page action hears its outcome after its page's notifications, even when started by an observer")
    func actionOutcomeFollowsItsPage() {
        let stapler = Stapler<Response, ServerError>(pageSize: 5) { offset, _ in
            SignalProducer(value: page(offset, 5, total: 50))
        }
        let log = Locked<[String]>([])
        let restarted = Locked(false)
        stapler.paginator.state.signal.observeValues { log.append("state \($0)") }
        stapler.refreshAction.completed.observeValues { log.append("refresh completed") }
        stapler.initialLoadAction.completed.observeValues { log.append("initial completed") }
        stapler.items.signal.observeValues { items in
            log.append("items \(items.count)")
            // From inside a notification: the refresh runs at once, its notifications queue behind this one.
            if !restarted.value {
                restarted.value = true
                stapler.refreshAction.apply().start()
            }
        }
        stapler.initialLoadAction.apply().start()
        #expect(
            log.value == [
                "state refreshing", "state data", "items 5", "initial completed", "state refreshing", "state data",
                "items 5", "refresh completed",
            ])
    }

    @Test("an empty first page clears shown items once, and changes nothing when there were none")
    func emptyFirstPages() {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 5)
        let changes = Locked<[ItemsChange]>([])
        paginator.updates.observeValues { changes.append($0.change) }
        let itemCounts = paginator.items.recordValues()
        paginator.refresh()
        server.last?.succeed(page(0, 0, total: 0))
        paginator.refresh()
        server.last?.succeed(page(0, 0, total: 0))
        #expect(changes.value.isEmpty && itemCounts.value.map(\.count) == [0])
        paginator.refresh()
        server.last?.succeed(page(0, 3, total: 3))
        paginator.refresh()
        server.last?.succeed(page(0, 0, total: 0))
        paginator.refresh()
        server.last?.succeed(page(0, 0, total: 0))
        #expect(changes.value == [.reloaded, .cleared])
        #expect(itemCounts.value.map(\.count) == [0, 3, 0])
        #expect(paginator.state.value == .noData)
    }
}
