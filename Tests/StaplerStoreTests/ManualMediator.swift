import Foundation
import Reactive
import Stapler

/// A mediator the test drives by hand: it records every call, and each load answers when the test says.
final class ManualMediator: RemoteMediator, @unchecked Sendable {
    typealias Row = Post

    /// One load the list asked for.
    final class Call: @unchecked Sendable {
        let request: RemoteRequest<Post>
        let completion: RemoteCompletion
        // Guarded by `lock`.
        private var cancels = 0
        private let lock = NSLock()

        init(_ request: RemoteRequest<Post>, _ completion: RemoteCompletion) {
            self.request = request
            self.completion = completion
        }

        var direction: PageDirection { request.direction }
        /// The id of the edge row the call carries.
        var edgeID: Int? { request.edgeRow?.id }
        /// How many times the list cancelled the call.
        var cancelCount: Int { lock.withLock { cancels } }

        func cancelled() { lock.withLock { cancels += 1 } }

        /// Writes posts `ids` as the window, with `after` as the bottom key, then succeeds.
        func refresh(_ ids: [Int], after: RemoteEdgeKey = .next("more"), endReached: Bool = false) throws {
            try request.commitRefresh(ids.map(Post.numbered), before: .end, after: after)
            succeed(endReached: endReached)
        }

        /// Writes posts `ids` beyond the edge, with `next` as its key, then succeeds.
        func page(_ ids: [Int], next: RemoteEdgeKey = .next("more"), endReached: Bool = false) throws {
            try request.commitPage(ids.map(Post.numbered), next: next)
            succeed(endReached: endReached)
        }

        func succeed(endReached: Bool = false) { completion.finish(.success(endReached: endReached)) }

        func fail(_ error: any Error) { completion.finish(.failure(error)) }
    }

    // Guarded by `lock`.
    private var recorded: [Call] = []
    private var log: [String] = []
    private var decision: RemoteInitialization
    private let lock = NSLock()

    init(_ decision: RemoteInitialization = .launchInitialRefresh) {
        self.decision = decision
    }

    func initialize(_ context: RemoteContext<Post>) throws -> RemoteInitialization {
        lock.withLock {
            log.append("initialize")
            return decision
        }
    }

    func load(_ request: RemoteRequest<Post>, completion: RemoteCompletion) -> any Disposable {
        let call = Call(request, completion)
        lock.withLock {
            recorded.append(call)
            log.append("\(request.direction)")
        }
        return AnyDisposable { call.cancelled() }
    }

    /// Every call so far: `initialize`, then the directions of the loads.
    var calls: [String] { lock.withLock { log } }
    /// The loads so far.
    var loads: [Call] { lock.withLock { recorded } }
    /// The latest load.
    var last: Call { lock.withLock { recorded.last! } }
    /// The loads of `direction` so far.
    func loads(_ direction: PageDirection) -> [Call] { loads.filter { $0.direction == direction } }
}

/// An error a test's server fails with.
struct Offline: Error, Equatable {}

/// The posts `from` down to `to`, newest first (the order of the "mediated" collection).
func posts(_ from: Int, through to: Int) -> [Int] { Array(stride(from: from, through: to, by: -1)) }

extension StoreListSetup {
    /// A list of the "mediated" collection filled by `mediator`, 20 rows a page.
    func mediatedList(
        _ mediator: some RemoteMediator<Post>, pageSize: Int = 20,
        isCancellation: @escaping @Sendable (any Error) -> Bool = { _ in false }
    ) -> PostList {
        PostList(
            store: probe, collection: "mediated", pageSize: pageSize, remote: mediator, isCancellation: isCancellation,
            scheduler: scheduler)
    }
}
