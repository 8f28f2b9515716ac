import Foundation
import Reactive
import Stapler
import Testing

/// A paginator over a store of posts.
typealias PostList = Paginator<Post, StorePosition, Void, StoreListMetadata, StoreError>

/// The stores a list recipe runs on: in memory, and SQLite over a file in WAL mode.
let listStoreKinds: [StoreKind] = [.memory, .sqliteWAL]

/// Records every update a list publishes, and checks as a mirror observer would: the update applied to
/// the rows before it gives its rows, and no id shows twice.
final class UpdateLog: @unchecked Sendable {
    // Guarded by `lock`.
    private var recorded: [ItemsUpdate<Post, StoreListMetadata>] = []
    private var mirror: [Post] = []
    private var problems: [String] = []
    private let lock = NSLock()
    private var subscription: (any Disposable)?

    init(_ list: PostList) {
        mirror = Array(list.items.value)
        subscription = list.updates.observeValues { [weak self] update in self?.record(update) }
    }

    deinit { subscription?.dispose() }

    private func record(_ update: ItemsUpdate<Post, StoreListMetadata>) {
        lock.withLock {
            recorded.append(update)
            update.apply(to: &mirror)
            if mirror.map(\.id) != update.items.map(\.id) { problems.append("the change does not give the rows") }
            if Set(mirror.map(\.id)).count != mirror.count { problems.append("an id shows twice") }
        }
    }

    /// The updates so far.
    var updates: [ItemsUpdate<Post, StoreListMetadata>] { lock.withLock { recorded } }
    /// What went wrong so far (empty when every update was consistent).
    var failures: [String] { lock.withLock { problems } }

    /// Forgets the updates so far.
    func clear() { lock.withLock { recorded = [] } }
}

/// A list over a fresh Store S, through a probe, with a test scheduler.
struct StoreListSetup {
    let fixture: StoreFixture<Post>
    let probe: StoreProbe<Post>
    let scheduler = TestScheduler()

    init(_ kind: StoreKind, seed: ClosedRange<Int>? = 1...100) throws {
        fixture = try StoreFixture(kind, schema: .storeS)
        if let seed { try fixture.seed(seed) }
        probe = StoreProbe(fixture)
    }

    /// A list of `collection` through the probe.
    func list(
        _ collection: String = "feed", pageSize: Int = 10, latency: Duration = .milliseconds(16),
        options: PagingOptions<Post, StorePosition> = PagingOptions(), openingAt opening: StorePosition = .first,
        observed: Bool = true, through store: StoreProbe<Post>? = nil
    ) -> PostList {
        PostList(
            store: store ?? probe, collection: collection, pageSize: pageSize, options: options,
            openingAt: opening, maxCoalescingLatency: latency, scheduler: scheduler, observed: observed)
    }
}

extension PostList {
    /// The ids shown.
    var ids: [Int] { items.value.map(\.id) }

    /// Loads next pages until the bottom ends.
    func loadToEnd() {
        while case .started = loadNextPage() {}
    }
}

extension ItemsUpdate where Item == Post {
    /// The keyed difference this update publishes, or `nil` for another kind of change.
    var difference: ItemsDifference? {
        if case .difference(let difference) = change { return difference }
        return nil
    }
}

/// Runs `body` on a new thread; the returned closure waits for it to end.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) -> () -> Void {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return { done.wait() }
}

extension LoadState {
    /// Whether nothing loads or failed in this direction.
    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }
}

extension PagingState {
    /// Whether the list shows data and nothing loads.
    var isData: Bool {
        if case .data = self { return true }
        return false
    }
}
