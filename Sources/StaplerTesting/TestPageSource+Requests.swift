import Reactive
import Stapler

/// What a fake server holds, under its lock.
struct ServerState<Item: Sendable, Query: Sendable> {
    /// The list served now.
    var list: [Item]
    /// The lists served from the next refreshes on.
    var upcoming: [[Item]]
    /// How many uses each injected failure has had.
    var failureUses: [Int]
    /// The most items an answer holds, if the server caps its pages.
    let pageCap: Int?
    /// Every request, in order.
    var requests: [TestRequest<Query>] = []
    /// The requests parked by `.manual` delivery, in order.
    var parked: [ParkedRequest<Query>] = []
    /// The indices of requests answered or failed.
    var answered: Set<Int> = []
    /// The indices of requests disposed before their answer.
    var disposed: Set<Int> = []
    /// How many rows were inserted at the top (less those removed there) since the server started: what
    /// turns a cursor's position into an offset.
    var topShift = 0
    /// How many refreshes were received.
    var refreshes = 0
    /// The keys produced so far, by the description of their query, with the direction each leads to.
    var produced: [String: [String: PageDirection]] = [:]
    /// The largest page size asked for: the page size of the models whose prepends ask for less.
    var pageSize = 0
    /// The list of each query, for a fake made with one: it replaces ``list`` at every answer.
    var itemsPerQuery: (@Sendable (Query) -> [Item])?
    /// The app's own errors the test failed requests with, by the request's index.
    var appFailures: [Int: any Error] = [:]

    /// Notes that `key` was produced for `direction` under `query`.
    mutating func produce(_ key: String, _ direction: PageDirection, query: String) {
        produced[query, default: [:]][key] = direction
    }

    /// The items from `offset`, at most `size` of them, clamped to the list.
    func slice(from offset: Int, size: Int) -> [Item] {
        let start = min(max(0, offset), list.count)
        let count = min(max(0, size), pageCap ?? Int.max)
        return Array(list[start..<min(list.count, start + count)])
    }
}

/// A request parked by `.manual` delivery, with the closure that answers it.
struct ParkedRequest<Query: Sendable>: Sendable {
    let request: TestRequest<Query>
    /// Answers with the page, or fails with the given error.
    let answer: @Sendable (TestSourceError?) -> Void
}

/// How a model describes one request to the fake server.
struct RequestDescription<Query: Sendable>: Sendable {
    /// The key, as the log shows it.
    let key: String
    /// The offset of the page's first item.
    let offset: Int
    let size: Int
    let query: Query
    /// The direction the paginator gave, when the model passes it on.
    let direction: PageDirection?
    /// Whether the key is one the app may open with (always served).
    let isOpening: Bool
}

extension TestPageSource {
    /// A producer of one request's response: each run logs the request, then answers it as the delivery
    /// says with `respond` (run under the lock, when the answer is made), or fails it.
    func producer<Response: Sendable>(
        _ described: @escaping @Sendable () -> RequestDescription<Query>,
        respond: @escaping @Sendable (inout ServerState<Item, Query>) -> Response
    ) -> SignalProducer<Response, TestSourceError> {
        SignalProducer { observer, lifetime in
            let (request, rejection) = self.register(described())
            let answer: @Sendable (TestSourceError?) -> Void = { forced in
                let result = self.state.withLock { state -> Result<Response, TestSourceError>? in
                    guard !state.disposed.contains(request.index), state.answered.insert(request.index).inserted
                    else { return nil }
                    if let failure = forced ?? rejection { return .failure(failure) }
                    if let itemsPerQuery = state.itemsPerQuery { state.list = itemsPerQuery(request.query) }
                    return .success(respond(&state))
                }
                switch result {
                case .success(let response)?:
                    observer.send(value: response)
                    observer.sendCompleted()
                case .failure(let error)?:
                    observer.send(error: error)
                case nil:
                    break
                }
            }
            lifetime += {
                self.state.withLock { state in
                    guard !state.answered.contains(request.index) else { return }
                    state.disposed.insert(request.index)
                    state.parked.removeAll { $0.request.index == request.index }
                }
            }
            if case .manual = self.delivery.mode {
                self.state.withLock { $0.parked.append(ParkedRequest(request: request, answer: answer)) }
            } else {
                lifetime += self.delivery.schedule { answer(nil) }
            }
        }
    }

    /// Logs a request and decides whether it fails: a key never produced, then an injected failure.
    private func register(_ described: RequestDescription<Query>) -> (TestRequest<Query>, TestSourceError?) {
        let query = String(describing: described.query)
        return state.withLock { state in
            let index = state.requests.count + 1
            let produced = state.produced[query]?[described.key]
            let direction = described.direction ?? (described.isOpening ? .refresh : produced ?? .refresh)
            if direction == .refresh {
                if state.refreshes > 0, !state.upcoming.isEmpty { state.list = state.upcoming.removeFirst() }
                state.refreshes += 1
            }
            if direction != .prepend { state.pageSize = max(state.pageSize, described.size) }
            let request = TestRequest(
                index: index, key: described.key, direction: direction, pageSize: described.size,
                query: described.query, offset: described.offset)
            state.requests.append(request)
            if strictKeys, !described.isOpening, produced == nil {
                return (request, .rejected(.unknownKey(described.key)))
            }
            for (position, failure) in failures.enumerated()
            where failure.matches(index: index, key: described.key, offset: described.offset) {
                guard failure.times.map({ state.failureUses[position] < $0 }) ?? true else { continue }
                state.failureUses[position] += 1
                return (request, .injected(key: described.key, request: index))
            }
            return (request, nil)
        }
    }
}
