import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// Every public type of Stapler is freed when the user releases it, even with work in flight (a load, an
/// action run, deliveries waiting on a scheduler); the work is then interrupted and nothing reaches an
/// observer afterwards. One suite, parameterised over the page models and the delivery modes.
@Suite("Leaks: Stapler")
struct StaplerLeakTests {
    /// A hand-driven backend whose runs are recorded; a run ends when it terminates or is disposed.
    final class Backend<Value: Sendable>: Sendable {
        final class Run: Sendable {
            let observer: Signal<Value, ServerError>.Observer
            let ended = Locked(false)

            init(observer: Signal<Value, ServerError>.Observer) {
                self.observer = observer
            }
        }

        let runs = Locked<[Run]>([])

        var producer: SignalProducer<Value, ServerError> {
            SignalProducer { [runs] observer, lifetime in
                let run = Run(observer: observer)
                lifetime.observeEnded { run.ended.value = true }
                runs.append(run)
            }
        }

        var allEnded: Bool { runs.value.allSatisfy { $0.ended.value } }
    }

    /// Where a paginator delivers its notifications.
    enum Delivery: String, CaseIterable, CustomStringConvertible {
        /// On the thread that caused them.
        case synchronous
        /// On a `TestScheduler` that has not run yet when the paginator is released: deliveries are pending.
        case pendingOnTestScheduler
        /// On a serial queue that is blocked until after the release: deliveries are pending on another thread.
        case pendingOnQueue

        var description: String { rawValue }

        /// The delivery scheduler (none for synchronous delivery), and how to run what it holds.
        func makeScheduler() -> Scheduling {
            switch self {
            case .synchronous: return Scheduling(scheduler: nil, run: {}, resume: {})
            case .pendingOnTestScheduler:
                let scheduler = TestScheduler()
                return Scheduling(scheduler: scheduler, run: { scheduler.run() }, resume: {})
            case .pendingOnQueue:
                let target = DispatchQueue(label: "leaks.delivery")
                let gate = DispatchSemaphore(value: 0)
                let blocked = Flag()
                let scheduler = QueueScheduler(targeting: target)
                return Scheduling(
                    scheduler: scheduler,
                    run: {
                        // Before the release: let the queue deliver what it holds, then block it again.
                        if blocked.isSet { gate.signal() }
                        target.sync {}
                        target.async { gate.wait() }
                        blocked.set()
                    },
                    resume: {
                        if blocked.isSet { gate.signal() }
                        target.sync {}
                    })
            }
        }
    }

    /// A delivery scheduler and its controls.
    struct Scheduling {
        let scheduler: (any Scheduler)?
        /// Runs what is pending (before the release).
        let run: @Sendable () -> Void
        /// Lets the scheduler run again after the release, and waits until it has.
        let resume: @Sendable () -> Void
    }

    /// The page models, each over its own hand-driven backend.
    enum Model: String, CaseIterable, CustomStringConvertible {
        case offset, pageNumber, cursor, exhaustible, singleLoad, custom

        var description: String { rawValue }
    }

    struct NumberedPage: NumberedPageResponse {
        let items: [Int]
        var pageCount: Int? { 10 }
    }

    /// What was left once a paginator with work in flight was released.
    struct ReleaseReport: Equatable, CustomStringConvertible {
        /// The paginator was freed as soon as the user released it.
        var freed = true
        /// Its load was disposed as soon as it was released (before any scheduler ran).
        var loadDisposed = true
        /// Observer closures still alive once it was released (they capture tracked tokens).
        var liveObservers = 0
        /// Values observers heard after the release, once a late answer came and the scheduler ran.
        var heardAfterRelease: [String] = []
        /// Each observed signal ended exactly once.
        var everySignalEndedOnce = true

        static let clean = ReleaseReport()

        var description: String {
            "freed \(freed), load disposed \(loadDisposed), live observers \(liveObservers), "
                + "heard after release \(heardAfterRelease), every signal ended once \(everySignalEndedOnce)"
        }
    }

    /// Observes every property and signal of `paginator` with closures that capture a tracked token, and
    /// logs what they hear once `released` is set.
    static func observeEverything<Key, Metadata>(
        _ paginator: Paginator<Int, Key, Void, Metadata, ServerError>, tracker: LifetimeTracker,
        released: Flag, heard: Locked<[String]>, terminals: Locked<[String]>
    ) {
        func watch<Value, Failure>(_ signal: Signal<Value, Failure>, _ name: String) {
            let token = tracker.instance()
            signal.observe { event in
                _ = token
                if event.isTerminating {
                    terminals.append(name)
                } else if released.isSet {
                    heard.append("\(name): \(event)")
                }
            }
        }
        func watch<Value>(_ property: Property<Value>, _ name: String) {
            watch(property.signal, name)
            let token = tracker.instance()
            property.producer.startWithValues { value in
                _ = token
                if released.isSet { heard.append("\(name) producer: \(value)") }
            }
        }
        watch(paginator.snapshot, "snapshot")
        watch(paginator.state, "state")
        watch(paginator.items, "items")
        watch(paginator.pages, "pages")
        watch(paginator.total, "total")
        watch(paginator.isEndReached, "isEndReached")
        watch(paginator.query, "query")
        watch(paginator.metadata, "metadata")
        watch(paginator.showsNextPageIndicator, "showsNextPageIndicator")
        watch(paginator.presentation, "presentation")
        watch(paginator.updates, "updates")
        watch(paginator.errorsAfterFirstPage, "errorsAfterFirstPage")
    }

    /// Builds a paginator with `make`, observes everything, starts a first page (and, with `loadsMore`,
    /// answers it with `first` and starts the next), releases it, then answers the load late on another
    /// thread and runs the scheduler.
    static func releaseReport<Key, Metadata, Value>(
        backend: Backend<Value>, first: Value, late: Value, loadsMore: Bool, scheduling: Scheduling,
        _ make: () -> Paginator<Int, Key, Void, Metadata, ServerError>
    ) -> ReleaseReport {
        let tracker = LifetimeTracker()
        let released = Flag()
        let heard = Locked<[String]>([])
        let terminals = Locked<[String]>([])
        weak var weakPaginator: Paginator<Int, Key, Void, Metadata, ServerError>?
        do {
            let paginator = make()
            weakPaginator = paginator
            observeEverything(paginator, tracker: tracker, released: released, heard: heard, terminals: terminals)
            scheduling.run()
            paginator.refresh()
            if loadsMore {
                backend.runs.value.last?.observer.send(value: first)
                scheduling.run()
                paginator.loadNextPage()
            }
        }
        released.set()
        var report = ReleaseReport()
        report.freed = weakPaginator == nil
        report.loadDisposed = backend.runs.value.count == (loadsMore ? 2 : 1) && backend.allEnded
        report.liveObservers = tracker.live
        backend.runs.value.last?.observer.send(value: late)
        DispatchQueue(label: "late answer").sync { backend.runs.value.last?.observer.send(value: late) }
        scheduling.resume()
        report.heardAfterRelease = heard.value
        report.everySignalEndedOnce = Set(terminals.value).count == 12 && terminals.value.count == 12
        return report
    }

    /// The release report of a paginator of `model`, delivering as `delivery`.
    static func releaseReport(_ model: Model, _ delivery: Delivery, loadsMore: Bool) -> ReleaseReport {
        let scheduling = delivery.makeScheduler()
        let scheduler = scheduling.scheduler
        switch model {
        case .offset:
            let backend = Backend<Response>()
            return releaseReport(
                backend: backend, first: page(0, 5, total: 100), late: page(5, 5, total: 100), loadsMore: loadsMore,
                scheduling: scheduling
            ) {
                Paginator(
                    source: .offset { _, _, _ in backend.producer },
                    options: PagingOptions(pageSize: 5, deliveringOn: scheduler))
            }
        case .pageNumber:
            let backend = Backend<NumberedPage>()
            return releaseReport(
                backend: backend, first: NumberedPage(items: [1, 2]), late: NumberedPage(items: [3, 4]),
                loadsMore: loadsMore, scheduling: scheduling
            ) {
                Paginator(
                    source: .pageNumber { _, _, _ in backend.producer },
                    options: PagingOptions(pageSize: 2, deliveringOn: scheduler))
            }
        case .cursor:
            let backend = Backend<CursorPage>()
            return releaseReport(
                backend: backend, first: CursorPage(items: [1, 2], nextCursor: "b"),
                late: CursorPage(items: [3, 4], nextCursor: "c"), loadsMore: loadsMore, scheduling: scheduling
            ) {
                Paginator(
                    source: .cursor { _, _, _ in backend.producer },
                    options: PagingOptions(pageSize: 2, deliveringOn: scheduler))
            }
        case .exhaustible:
            let backend = Backend<FlaggedPage>()
            return releaseReport(
                backend: backend, first: FlaggedPage(items: [1, 2], isExhausted: false),
                late: FlaggedPage(items: [3], isExhausted: true), loadsMore: loadsMore, scheduling: scheduling
            ) {
                Paginator(
                    source: .exhaustible { _, _, _ in backend.producer },
                    options: PagingOptions(pageSize: 2, deliveringOn: scheduler))
            }
        case .singleLoad:
            let backend = Backend<[Int]>()
            return releaseReport(
                backend: backend, first: [1, 2], late: [3], loadsMore: false, scheduling: scheduling
            ) {
                Paginator(
                    source: .singleLoad { _ in backend.producer },
                    options: PagingOptions(pageSize: 2, deliveringOn: scheduler))
            }
        case .custom:
            let backend = Backend<[Int]>()
            return releaseReport(
                backend: backend, first: [1, 2], late: [3, 4], loadsMore: loadsMore, scheduling: scheduling
            ) {
                Paginator(
                    source: PageSource<Int, Int, Void, Void, ServerError>(firstKey: 0) { request in
                        backend.producer.map { Page(items: $0, nextKey: request.key + $0.count) }
                    }, options: PagingOptions(pageSize: 2, deliveringOn: scheduler))
            }
        }
    }

    @Test(
        "P16: a paginator of every page model released with its first page in flight is freed at once, its load disposed",
        arguments: Model.allCases, Delivery.allCases)
    func P16_releaseWhileRefreshing(model: Model, delivery: Delivery) {
        #expect(Self.releaseReport(model, delivery, loadsMore: false) == .clean)
    }

    @Test(
        "P16: a paginator of every page model released with a later page in flight is freed at once, its load disposed",
        arguments: Model.allCases.filter { $0 != .singleLoad }, Delivery.allCases)
    func P16_releaseWhileLoadingMore(model: Model, delivery: Delivery) {
        #expect(Self.releaseReport(model, delivery, loadsMore: true) == .clean)
    }

    @Test("P16: an async load of a released paginator has its task cancelled")
    func P16_asyncLoadCancelledOnRelease() async {
        let started = Flag()
        let cancelled = Flag()
        weak var weakPaginator: Paginator<Int, Int, Void, Response, ServerError>?
        do {
            let paginator = Paginator(
                source: .offset { (_: Int, _: Int, _: Void) async throws(ServerError) -> Response in
                    started.set()
                    do {
                        try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                    } catch {
                        cancelled.set()
                        throw .timeout
                    }
                    return page(0, 5, total: 5)
                }, pageSize: 5)
            weakPaginator = paginator
            synchronously { paginator.refresh() }
            #expect(await eventually { started.isSet })
        }
        #expect(weakPaginator == nil)
        #expect(await eventually { cancelled.isSet }, "the task of the load was cancelled")
    }

    // MARK: The Stapler facade

    @Test(
        "P16: a Stapler released while an action runs is freed with its actions; the run is interrupted",
        arguments: ["initialLoadAction", "refreshAction", "next page"], Delivery.allCases)
    func P16_staplerReleasedWithWorkInFlight(work: String, delivery: Delivery) {
        let scheduling = delivery.makeScheduler()
        let scheduler = scheduling.scheduler
        let server = OffsetServer()
        let tracker = LifetimeTracker()
        let leaks = LeakCheck()
        let runEvents = Locked<[String]>([])
        do {
            let stapler = Stapler<Response, ServerError>(pageSize: 10, deliveringOn: scheduler) { offset, size in
                server.producer(offset, size: size)
            }
            leaks.track(stapler, "stapler")
            leaks.track(stapler.paginator, "paginator")
            leaks.track(stapler.initialLoadAction, "initialLoadAction")
            leaks.track(stapler.refreshAction, "refreshAction")
            for signal in [stapler.initialLoadAction.completed, stapler.refreshAction.completed] {
                let token = tracker.instance()
                signal.observe { _ in _ = token }
            }
            let token = tracker.instance()
            stapler.items.producer.startWithValues { _ in _ = token }
            scheduling.run()
            let action = work == "refreshAction" ? stapler.refreshAction : stapler.initialLoadAction
            action.apply().start { runEvents.append("\($0)") }
            if work == "next page" {
                server.last?.succeed(page(0, 10, total: 100))
                scheduling.run()
                stapler.loadNextPageIfNeeded()
            }
        }
        #expect(leaks.survivors == [])
        #expect(tracker.live == 0)
        #expect(server.requests.allSatisfy { $0.isDisposed })
        server.last?.succeed(page(0, 10, total: 100), on: DispatchQueue(label: "late"))
        scheduling.resume()
        if work != "next page" {
            // The run ends interrupted (an action that is released interrupts its runs); with a delivery
            // scheduler the outcome was never delivered, so the run just ends with its action.
            #expect(runEvents.value == ["interrupted"] || (delivery != .synchronous && runEvents.value.isEmpty))
        }
    }

    @Test("P16: an action of a released Stapler keeps working while it is held, then frees everything")
    func P16_actionOutlivesTheStapler() {
        let server = OffsetServer()
        let leaks = LeakCheck()
        let events = Locked<[String]>([])
        do {
            var action: Action<Void, Void, PagingError<ServerError>>?
            do {
                let stapler = makeStapler(server: server)
                leaks.track(stapler, "stapler")
                leaks.track(stapler.paginator, "paginator")
                action = stapler.refreshAction
            }
            #expect(leaks.survivors == [], "the Stapler and its paginator are freed; the held action is not")
            action?.apply().start { events.append("\($0)") }
            server.last?.succeed(page(0, 10, total: 10))
            #expect(events.value == ["value(())", "completed"])
            action?.apply().start { events.append("\($0)") }
            leaks.track(action!, "action")
            action = nil
        }
        #expect(leaks.survivors == [])
        #expect(server.requests.allSatisfy { $0.isDisposed })
        #expect(events.value == ["value(())", "completed", "interrupted"])
    }
}
