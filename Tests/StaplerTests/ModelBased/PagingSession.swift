import Dispatch
import Reactive
import Stapler
import TestSupport

/// Runs operation sequences on a real paginator and checks it against ``PagingReference`` after each step.
final class PagingSession {
    typealias TestPaginator = Paginator<Int, Int, Int, Response, ServerError>

    /// One request the paginator made.
    final class Request: Sendable {
        let key: Int
        let query: Int
        let observer: Signal<Response, ServerError>.Observer
        let ended = Locked(false)

        init(key: Int, query: Int, observer: Signal<Response, ServerError>.Observer) {
            self.key = key
            self.query = query
            self.observer = observer
        }
    }

    private let requests = Locked<[Request]>([])
    private var paginator: TestPaginator
    private var reference = PagingReference()
    private let stateLog = Locked<[String]>([])
    private static let otherThread = DispatchQueue(label: "model.responses")

    init(appliesStaleResponses: Bool = false) {
        paginator = Self.makePaginator(requests: requests, stateLog: stateLog)
        reference.appliesStaleResponses = appliesStaleResponses
    }

    private static func makePaginator(requests: Locked<[Request]>, stateLog: Locked<[String]>) -> TestPaginator {
        let source = PageSource<Int, Int, Int, Response, ServerError>.offset { offset, _, query in
            SignalProducer { observer, lifetime in
                let request = Request(key: offset, query: query, observer: observer)
                lifetime.observeEnded { request.ended.value = true }
                requests.append(request)
            }
        }
        let paginator = TestPaginator(
            source: source, pageSize: PagingReference.pageSize, query: 0,
            prefetchDistance: PagingReference.prefetchDistance)
        stateLog.value = [paginator.state.value.name]
        paginator.state.signal.observeValues { stateLog.append($0.name) }
        return paginator
    }

    /// Applies `operation` to the paginator and the reference; returns a failure description, if any.
    func apply(_ operation: PagingOperation) -> String? {
        let count = requests.value.count
        switch operation {
        case .refresh(let query):
            reference.refresh(query: query, requestCount: count)
            if let query { paginator.refresh(query: query) } else { paginator.refresh() }
        case .loadNext:
            reference.loadNext(requestCount: count)
            paginator.loadNextPage()
        case .preload(let row):
            reference.preload(row: row, requestCount: count)
            paginator.preload(index: row)
        case .retry:
            reference.retry(requestCount: count)
            paginator.retry()
        case .cancel:
            reference.cancel()
            paginator.cancel()
        case .respond(let age, let answer, let onAnotherThread):
            let all = requests.value
            guard all.count > age else { return check() }
            let index = all.count - 1 - age
            reference.respond(toRequest: index, key: all[index].key, with: answer)
            let send = { Self.answer(all[index], with: answer) }
            if onAnotherThread { Self.otherThread.sync(execute: send) } else { send() }
        case .release:
            let live = requests.value
            weak var released: TestPaginator?
            do {
                released = paginator
                paginator = Self.makePaginator(requests: requests, stateLog: stateLog)
            }
            if released != nil { return "the released paginator is still alive" }
            if live.contains(where: { !$0.ended.value }) { return "a load of the released paginator was not disposed" }
            requests.value = []
            reference = PagingReference()
        }
        return check()
    }

    private static func answer(_ request: Request, with answer: PagingOperation.Answer) {
        let size = PagingReference.sizes[request.query]
        let full = PagingReference.dataset(request.query, from: request.key, count: PagingReference.pageSize)
        switch answer {
        case .page:
            request.observer.send(value: Response(items: full, total: size))
            request.observer.sendCompleted()
        case .shortPage:
            let items = PagingReference.dataset(request.query, from: request.key, count: PagingReference.pageSize - 2)
            request.observer.send(value: Response(items: items, total: size))
        case .emptyPage:
            request.observer.send(value: Response(items: [], total: size))
        case .failure:
            request.observer.send(error: .unavailable)
        case .noPage:
            request.observer.sendCompleted()
        case .twoPages:
            request.observer.send(value: Response(items: full, total: size))
            request.observer.send(value: Response(items: [99_999], total: size))
        case .pageThenFailure:
            request.observer.send(value: Response(items: full, total: size))
            request.observer.send(error: .timeout)
        case .negativeTotal:
            request.observer.send(value: Response(items: full, total: -1))
        }
    }

    /// Compares the paginator with the reference.
    private func check() -> String? {
        let items = Array(paginator.items.value)
        let state = paginator.state.value.name
        if items != reference.items { return "items \(items), expected \(reference.items)" }
        if state != reference.state { return "state \(state), expected \(reference.state)" }
        if Set(items).count != items.count { return "duplicate items \(items)" }
        if let stale = items.first(where: { $0 / 1_000 != reference.itemsQuery }) {
            return "stale item \(stale) of another query"
        }
        if (state == "data" || state == "noData") && paginator.isEndReached.value != reference.isEndReached {
            return "isEndReached \(paginator.isEndReached.value), expected \(reference.isEndReached)"
        }
        let all = requests.value
        let live = all.indices.filter { !all[$0].ended.value }
        if live.count > 1 { return "\(live.count) loads in flight" }
        if let pending = reference.pending {
            guard all.count == pending.index + 1 else {
                return "\(all.count) requests, expected \(pending.index + 1)"
            }
            if all[pending.index].key != pending.key {
                return "request key \(all[pending.index].key), expected \(pending.key)"
            }
            if live != [pending.index] { return "the awaited load is not the one in flight" }
        } else if !live.isEmpty {
            return "a load is in flight but none is expected"
        }
        let log = stateLog.value
        for (from, to) in zip(log, log.dropFirst()) where !Self.isAllowed(from, to) {
            return "illegal transition \(from) -> \(to)"
        }
        return nil
    }

    private static let allowed: Set<String> = [
        "uninitialized->refreshing", "refreshing->refreshing", "refreshing->errorRefreshing", "refreshing->noData",
        "refreshing->data", "refreshing->uninitialized", "errorRefreshing->refreshing", "noData->refreshing",
        "data->refreshing", "data->loadingMore", "loadingMore->errorLoadingMore", "loadingMore->data",
        "loadingMore->refreshing", "errorLoadingMore->loadingMore", "errorLoadingMore->refreshing",
    ]

    private static func isAllowed(_ from: String, _ to: String) -> Bool {
        from == to || allowed.contains("\(from)->\(to)")
    }
}
