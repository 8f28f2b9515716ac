import Reactive
import Stapler
import TestSupport
import Testing

/// A paginator makes each property and signal the first time it is read; one read late holds exactly
/// what one read at the start would hold by then.
@Suite("Published values made on first use")
struct PublishedValueTests {
    /// A paginator over `server` with three pages of 5 loaded (of 20) and a fourth in flight.
    private static func loaded(_ server: OffsetServer, deliveringOn scheduler: (any Scheduler)? = nil)
        -> Paginator<Int, Int, Int, Response, ServerError>
    {
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer(offset + query * 1_000, size: size) }, query: 7,
            options: PagingOptions(pageSize: 5, deliveringOn: scheduler))
        paginator.refresh()
        server.last?.succeed(page(0, 5, total: 20))
        paginator.loadNextPage()
        server.last?.succeed(page(5, 5, total: 20))
        paginator.loadNextPage()
        server.last?.succeed(page(10, 5, total: 20))
        paginator.loadNextPage()
        return paginator
    }

    @Test("a property first read late holds what every property holds: the latest publication's values")
    func lateReadsHoldTheLatestPublication() {
        let server = OffsetServer()
        let paginator = Self.loaded(server)
        let items = Array(paginator.items.value)
        let observed = [
            "\(paginator.state.value)", "\(items.count)", "\(paginator.pages.value)",
            "\(paginator.total.value as Any)", "\(paginator.isEndReached.value)", "\(paginator.query.value)",
            "\(paginator.metadata.value?.items.first as Any)", "\(paginator.showsNextPageIndicator.value)",
            "\(paginator.presentation.value.visibleRowCount)",
        ]
        #expect(
            observed == [
                "loadingMore", "15", "3", "Optional(20)", "false", "7", "Optional(10)", "true", "16",
            ])
        #expect(items == Array(0..<15))
        let snapshot = paginator.snapshot.value
        #expect(snapshot.state == .loadingMore && snapshot.pages == 3 && snapshot.items.count == 15)
    }

    @Test("every read returns the same property and signal objects")
    func sameObjects() {
        let paginator = Self.loaded(OffsetServer())
        #expect(paginator.items === paginator.items)
        #expect(paginator.state === paginator.state)
        #expect(paginator.query === paginator.query)
        #expect(paginator.metadata === paginator.metadata)
        #expect(paginator.updates === paginator.updates)
        #expect(paginator.errorsAfterFirstPage === paginator.errorsAfterFirstPage)
    }

    @Test("P14: with a delivery scheduler, a property first read before the scheduler runs holds what was delivered")
    func lateReadsFollowDeliveriesNotTheMachine() {
        let scheduler = TestScheduler()
        let server = OffsetServer()
        let paginator = Self.loaded(server, deliveringOn: scheduler)
        // Nothing was delivered yet: the machine is three pages ahead of what observers have heard.
        #expect(paginator.state.value == .uninitialized && paginator.items.value.isEmpty)
        #expect(paginator.pages.value == 0 && paginator.query.value == 7)
        let pages = paginator.pages.recordValues()
        scheduler.run()
        #expect(pages.value == [0, 1, 2, 3])
        #expect(paginator.state.value == .loadingMore && paginator.items.value.count == 15)
        // Read for the first time after the deliveries: the same values as the ones read before.
        #expect(paginator.total.value == 20 && paginator.metadata.value?.items.first == 10)
        expectNoPendingWork(scheduler)
    }

    @Test("P14: a property first read inside a notification holds that notification's values")
    func firstReadInsideANotification() {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 5)
        let seen = Locked<[String]>([])
        paginator.updates.observeValues { update in
            // The first read of `pages` and `presentation` happens here, while a change is delivered.
            seen.append(
                "\(update.items.count) \(paginator.items.value.count) \(paginator.pages.value) "
                    + "\(paginator.presentation.value.visibleRowCount)")
            if paginator.pages.value < 3 {
                paginator.loadNextPage()
                server.last?.succeed(page(paginator.pages.value * 5, 5, total: 15))
            }
        }
        paginator.refresh()
        server.last?.succeed(page(0, 5, total: 15))
        #expect(seen.value == ["5 5 1 6", "10 10 2 11", "15 15 3 15"])
    }

    @Test("a signal first observed late hears the changes after it, and completes when the paginator is released")
    func lateSignal() {
        let server = OffsetServer()
        var paginator: Paginator<Int, Int, Int, Response, ServerError>? = Self.loaded(server)
        let updates = paginator!.updates.record()
        let errors = paginator!.errorsAfterFirstPage.record()
        server.last?.fail(.timeout)
        paginator!.retry()
        server.last?.succeed(page(15, 5, total: 20))
        #expect(updates.values.map(\.change) == [.appended(15..<20)])
        #expect(errors.values == [.source(.timeout)])
        paginator = nil
        #expect(updates.isTerminated && errors.isTerminated)
    }

    @Test("releasing the paginator completes the change signal of a property nobody else holds")
    func releasedPropertiesComplete() {
        let server = OffsetServer()
        var paginator: Paginator<Int, Int, Int, Response, ServerError>? = Self.loaded(server)
        let states = paginator!.state.signal.record()
        paginator!.cancel()
        paginator = nil
        #expect(states.events.count == 2)
        #expect(states.values == [.data] && states.isTerminated)
    }
}
