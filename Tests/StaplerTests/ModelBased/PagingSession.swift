import Dispatch
import Reactive
import TestSupport

@testable import Stapler

/// Runs operation sequences on a real paginator and checks it against ``PagingReference`` after each step.
///
/// Everything it shares with observers and other queues is guarded by a `Locked`; the test drives it from
/// one thread, and every hop to another queue is a `sync`, so each sequence replays exactly from its seed.
final class PagingSession: Sendable {
    typealias OffsetPaginator = Paginator<Int, Int, Int, Response, ServerError>
    typealias CursorPaginator = Paginator<Int, String?, Int, CursorReply, ServerError>

    struct CursorReply: CursorPageResponse, Equatable, Codable {
        let items: [Int]
        let nextCursor: String?
        let previousCursor: String?
    }

    /// One request the paginator made, answered by the test.
    final class Request: Sendable {
        let serial: Int
        let key: Int
        let query: Int
        /// How many items the request asks for at most.
        let size: Int
        let ended = Locked(false)
        /// Sends a page (the items, the total for the offset model, the next and previous positions for
        /// the cursor one).
        let sendPage: @Sendable (_ items: [Int], _ total: Int, _ next: Int?, _ previous: Int?) -> Void
        let sendFailure: @Sendable () -> Void
        let sendCompleted: @Sendable () -> Void

        init<Value>(
            serial: Int, key: Int, query: Int, size: Int, observer: Signal<Value, ServerError>.Observer,
            page: @escaping @Sendable ([Int], Int, Int?, Int?) -> Value
        ) {
            self.serial = serial
            self.key = key
            self.query = query
            self.size = size
            sendPage = { items, total, next, previous in observer.send(value: page(items, total, next, previous)) }
            sendFailure = { observer.send(error: .unavailable) }
            sendCompleted = { observer.sendCompleted() }
        }
    }

    /// What the checks read from the paginator.
    struct Observed: Equatable {
        var items: [Int]
        var state: String
        var query: Int
        var pages: Int
        var total: Int?
        var isEndReached: Bool
        var loadStates: String
    }

    /// The paginator under test, whatever its page model.
    struct Subject: Sendable {
        let object: AnyObject & Sendable
        let refresh: @Sendable (Int?) -> Void
        let refreshInMode: @Sendable (RefreshMode<Int>) -> Void
        let loadNext: @Sendable () -> Void
        let loadPrevious: @Sendable () -> Void
        let preload: @Sendable (Int) -> Void
        /// The leading count, list serial and rows of the snapshot observers last got.
        let seen: @Sendable () -> (leading: Int, serial: UInt64, items: [Int])
        let edit: @Sendable (PagingOperation.EditKind, Int, Int?) -> EditOutcome
        let retry: @Sendable () -> Void
        let cancel: @Sendable () -> Void
        let observed: @Sendable () -> Observed
        let slots: @Sendable () -> Slots
    }

    let configuration: ModelConfiguration
    let mutation: PagingReference.Mutation?
    let queues: [DispatchQueue]
    let requests = Locked<[Request]>([])
    let reference: Locked<PagingReference>
    let subject = Locked<Subject?>(nil)
    let scheduler = Locked<TestScheduler?>(nil)
    /// The clock of the policy's timeouts and retries, when the configuration uses policies.
    let policyClock = Locked<TestScheduler?>(nil)
    /// What an observer does at the next state or items notification (once).
    let stateHook = Locked<(@Sendable () -> Void)?>(nil)
    let itemsHook = Locked<(@Sendable () -> Void)?>(nil)
    /// Failures seen by observers (illegal transitions), reported at the next check.
    let observedFailures = Locked<[String]>([])
    /// Checks the transformed list of the current paginator (see `TransformCheck`).
    let transformCheck = Locked<(@Sendable () -> String?)?>(nil)
    /// A paginator restored from this one's saved list, driven alongside it (``PagingOperation/saveAndRestore``).
    let restored = Locked<RestoredMirror?>(nil)

    init(_ configuration: ModelConfiguration, queues: [DispatchQueue], mutation: PagingReference.Mutation? = nil) {
        self.configuration = configuration
        self.queues = queues
        self.mutation = mutation
        reference = Locked(PagingReference(configuration: configuration, firstSerial: 0, mutation: mutation))
        start()
    }

    /// Creates a fresh paginator (and delivery scheduler, and policy clock).
    private func start() {
        let scheduler = configuration.delaysDelivery ? TestScheduler() : nil
        self.scheduler.value = scheduler
        let clock = configuration.usesPolicies ? TestScheduler() : nil
        policyClock.value = clock
        subject.value =
            switch configuration.model {
            case .offset: makeOffsetSubject(deliveringOn: scheduler, clock: clock)
            case .cursor: makeCursorSubject(deliveringOn: scheduler, clock: clock)
            }
    }

    // MARK: Operations

    /// Applies `operation` to the paginator and the reference; returns a failure description, if any.
    func apply(_ operation: PagingOperation) -> String? {
        if let failure = prepareMirror(operation) { return failure }
        var result: CallResult = (nil, nil)
        switch operation {
        case .call(let call, let queue):
            // With nothing left to deliver, the screen shows the reference's list.
            if scheduler.value?.nextDue == nil { reference.withLock { $0.screenCaughtUp() } }
            result = perform(call, on: queue)
        case .respond(let age, let answer, let queue, let delay):
            guard let request = request(age: age) else { break }
            if delay > 0, let scheduler = scheduler.value {
                scheduler.schedule(after: .seconds(delay)) { [weak self] in
                    self?.answer(request, with: answer, on: queue)
                }
            } else {
                self.answer(request, with: answer, on: queue)
            }
        case .respondWhenStateChanges(let age, let answer):
            stateHook.value = { [weak self] in
                guard let self, let request = request(age: age) else { return }
                self.answer(request, with: answer, on: 0)
            }
        case .whenItemsChange(let call):
            itemsHook.value = { [weak self] in
                guard let self, let result = self.perform(call, on: 0) as CallResult? else { return }
                self.restored.value?.edits.append(result)
            }
        case .advance(let ticks):
            scheduler.value?.advance(by: .seconds(ticks))
        case .runScheduler:
            scheduler.value?.run()
        case .advanceClock(let seconds):
            reference.withLock { $0.advance(seconds: seconds) }
            policyClock.value?.advance(by: .seconds(seconds))
        case .release:
            if let failure = release() { return failure }
        case .saveAndRestore:
            break
        }
        if let failure = mirror(operation, result) { return failure }
        return check()
    }

    /// Runs what the delivery scheduler still holds, then checks: the end of a sequence.
    func finish() -> String? {
        scheduler.value?.run()
        return check()
    }

    /// Applies `call` to the reference, then makes it on the paginator (on `queue`). The reference goes
    /// first, because an observer may act on the paginator from inside the call. Returns the value an
    /// edit put in and its outcome.
    @discardableResult
    private func perform(_ call: PagingOperation.Call, on queue: Int) -> CallResult {
        let result = Locked<CallResult>((nil, nil))
        let body: @Sendable () -> Void = { [self] in
            guard let subject = subject.value else { return }
            let seen = subject.seen()
            let edit = reference.withLock { reference -> (applies: Bool, value: Int?)? in
                switch call {
                case .refresh(let query): reference.refresh(query: query)
                case .reloadAll: reference.refresh(query: nil, reloadAll: true)
                case .refreshAround(let row): reference.refresh(query: nil, aroundRow: row)
                case .loadNext: reference.loadNext()
                case .loadPrevious: reference.loadPrevious()
                case .preload(let row): reference.preload(row: row, seenLeading: seen.leading, seenSerial: seen.serial)
                case .retry: reference.retry()
                case .cancel: reference.cancel()
                case .edit(let kind, let row):
                    // The row is read against the snapshot the screen shows, which may lag the engine.
                    switch reference.edit(kind, row: row, shown: (seen.items, seen.serial)) {
                    case .applies(let value)?: return (true, value)
                    case .changesNothing?: return (false, nil)
                    case nil: return nil
                    }
                }
                return (false, nil)
            }
            switch call {
            case .refresh(let query): subject.refresh(query)
            case .reloadAll: subject.refreshInMode(.reloadAll)
            case .refreshAround(let row): subject.refreshInMode(.around(index: row))
            case .loadNext: subject.loadNext()
            case .loadPrevious: subject.loadPrevious()
            case .preload(let row): subject.preload(row)
            case .retry: subject.retry()
            case .cancel: subject.cancel()
            case .edit(let kind, let row):
                // A row removed and brought back while the screen lagged: the reference cannot tell which
                // the screen's index names, so the edit is not made.
                guard let edit else { return }
                let outcome = subject.edit(kind, row, edit.value ?? -1)
                result.value = (edit.value, outcome)
                if (outcome == .applied) != edit.applies {
                    observedFailures.append(
                        "\(call) was \(outcome), the reference \(edit.applies ? "applies it" : "does not")")
                }
            }
        }
        if queue == 0 { body() } else { queues[queue - 1].sync(execute: body) }
        return result.value
    }

    /// The request `age` steps back from the latest, or the oldest when there are fewer.
    private func request(age: Int) -> Request? {
        let all = requests.value
        guard !all.isEmpty else { return nil }
        return all[all.count - 1 - min(age, all.count - 1)]
    }

    /// Sends `answer` to `request` (on `queue`), after telling the reference what it sends.
    private func answer(_ request: Request, with answer: PagingOperation.Answer, on queue: Int) {
        let body: @Sendable () -> Void = { [self] in
            let reply = Self.reply(to: request, with: answer, model: configuration.model)

            reference.withLock { $0.respond(serial: request.serial, key: request.key, with: reply) }
            Self.send(answer, reply, to: request)
        }
        if queue == 0 { body() } else { queues[queue - 1].sync(execute: body) }
    }

    /// Sends `reply` to `request` in the shape `answer` gives it.
    static func send(_ answer: PagingOperation.Answer, _ reply: PagingReference.Reply, to request: Request) {
        switch (answer, reply) {
        case (.failure, _):
            request.sendFailure()
        case (.noPage, _):
            request.sendCompleted()
        case (.twoPages, .page(let items, let total, let next, let previous)):
            request.sendPage(items, total, next, previous)
            request.sendPage([99_999], total, next, previous)
        case (.pageThenFailure, .page(let items, let total, let next, let previous)):
            request.sendPage(items, total, next, previous)
            request.sendFailure()
        case (.pageOnly, .page(let items, let total, let next, let previous)):
            request.sendPage(items, total, next, previous)
        case (_, .page(let items, let total, let next, let previous)):
            request.sendPage(items, total, next, previous)
            request.sendCompleted()
        case (_, .failure):
            request.sendFailure()
        }
    }

    /// What the server sends for `request`: plain test data, the same for both the paginator and the
    /// reference, which decides on its own what the paginator must make of it.
    static func reply(
        to request: Request, with answer: PagingOperation.Answer, model: ModelConfiguration.PageModel
    ) -> PagingReference.Reply {
        let size = PagingReference.sizes[request.query]
        let pageSize = PagingReference.pageSize
        var from = request.key
        var count = min(pageSize, request.size)
        var total = size
        switch answer {
        case .failure, .noPage: return .failure
        case .shortPage: count = max(0, count - 2)
        case .emptyPage: count = 0
        case .overlapping: from = max(0, request.key - 2)
        case .badKey where model == .offset: total = -1
        default: break
        }
        let items = PagingReference.dataset(request.query, from: from, count: count)
        var next = items.isEmpty || from + items.count >= size ? nil : from + items.count
        if answer == .badKey, model == .cursor, request.key > 0 {
            // A cursor already used: this page's own (A, A), or the second page's (A, B, A).
            next = request.key > pageSize ? pageSize : request.key
        }
        let previous = request.key > 0 ? max(0, request.key - pageSize) : nil
        return .page(items: items, total: total, next: next, previous: previous)
    }

    /// Releases the paginator with whatever it has in flight and starts a fresh one.
    private func release() -> String? {
        weak var released: AnyObject?
        let oldScheduler = scheduler.value
        do {
            released = subject.value?.object
            subject.value = nil
        }
        stateHook.value = nil
        itemsHook.value = nil
        transformCheck.value = nil
        reference.value = PagingReference(
            configuration: configuration, firstSerial: requests.value.count, mutation: mutation)
        if released != nil { return "the released paginator is still alive" }
        if requests.value.contains(where: { !$0.ended.value }) {
            return "a load of the released paginator was not disposed"
        }
        // Deliveries (and delayed answers) still scheduled run now, as a main queue would run them.
        if let failure = releaseRestored() { return failure }
        oldScheduler?.run()
        start()
        return nil
    }

    // MARK: Checks

    /// Compares the paginator with the reference.
    private func check() -> String? {
        if let failure = observedFailures.value.first { return failure }
        let reference = reference.value
        let all = requests.value
        let mine = all[reference.firstSerial...]
        let live = all.filter { !$0.ended.value }.map(\.serial)
        if mine.count > reference.loadsStarted {
            if reference.isEndReached && reference.pending.isEmpty && reference.state == "data" {
                return "a request after the end: \(mine.count) requests, expected \(reference.loadsStarted)"
            }
            return "\(mine.count) requests, expected \(reference.loadsStarted)"
        }
        if mine.count < reference.loadsStarted { return "\(mine.count) requests, expected \(reference.loadsStarted)" }
        if live.count > 2 { return "\(live.count) loads in flight: \(live)" }
        for pending in reference.pending {
            let request = all[pending.serial]
            if request.key != pending.key || request.query != pending.query {
                return
                    "request (key \(request.key), query \(request.query)), expected (key \(pending.key), query \(pending.query))"
            }
        }
        if Set(live) != Set(reference.pending.map(\.serial)) {
            return "loads \(live) are in flight, expected \(reference.pending.map(\.serial))"
        }
        // With a delivery scheduler, the published values catch up when it runs what is due.
        if let scheduler = scheduler.value, let due = scheduler.nextDue, due <= scheduler.now { return nil }
        if let failure = transformCheck.value?() { return failure }
        guard let observed = subject.value?.observed() else { return "no paginator" }
        let expected = Observed(
            items: reference.items, state: reference.state, query: reference.query, pages: reference.pageKeys.count,
            total: reference.total, isEndReached: reference.isEndReached, loadStates: reference.loadStates)
        if configuration.deduplicates, Set(observed.items).count != observed.items.count {
            return "duplicate items \(observed.items)"
        }
        if let stale = observed.items.first(where: { $0 / 1_000 != reference.itemsQuery }) {
            return "stale item \(stale) of another query"
        }
        if observed != expected { return "observed \(observed), expected \(expected)" }
        // Without placeholders the slots are the items: read only when they can differ.
        let slots = configuration.placeholders ? subject.value?.slots() ?? Slots() : Slots()
        if let failure = checkSlots(slots, reference) { return failure }
        return checkRestored(against: observed, slots: slots)
    }

    private static let allowed: Set<String> = [
        "uninitialized->refreshing", "refreshing->refreshing", "refreshing->errorRefreshing", "refreshing->noData",
        "refreshing->data", "refreshing->uninitialized", "errorRefreshing->refreshing", "noData->refreshing",
        "data->refreshing", "data->loadingMore", "loadingMore->errorLoadingMore", "loadingMore->data",
        "loadingMore->refreshing", "errorLoadingMore->loadingMore", "errorLoadingMore->refreshing",
        "restoring->data", "restoring->noData",
    ]

    static func isAllowed(_ from: String, _ to: String) -> Bool {
        from == to || allowed.contains("\(from)->\(to)")
    }
}
