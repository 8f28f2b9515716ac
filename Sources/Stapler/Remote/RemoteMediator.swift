import Reactive

/// Whether a list over a store asks the network for a fresh first page when it opens.
public enum RemoteInitialization: Hashable, Sendable {
    /// The list opens from the store, then refreshes from the network; edge loads wait until that refresh
    /// succeeds.
    case launchInitialRefresh
    /// The list opens from the store and asks the network only at its edges (the cache is young enough).
    case skipInitialRefresh
}

/// How one remote load ended, as a mediator reports it.
public enum RemoteResult: Sendable {
    /// The load wrote what it fetched (or nothing); `endReached` says that the server has nothing further
    /// in that direction (for a refresh: in any direction).
    case success(endReached: Bool)
    /// The load failed: the direction stops until ``Paginator/retry()-1n6nq`` (a refresh failure keeps the
    /// rows shown). A `CancellationError`, or an error the list's `isCancellation` recognises, is no
    /// failure: the direction returns to idle and reports nothing.
    case failure(any Error)
}

/// What fetches pages from the network into a store, for one list over one of the store's collections.
///
/// The list asks it for a refresh when it opens (as ``initialize(_:)`` decides) and on
/// ``Paginator/refresh()``, and for the page beyond an edge when the list reaches an edge of what the
/// store holds while the server has more. The mediator writes into the store only, through the request's
/// transactions (``RemoteRequest/write(_:)``), and never into the list: the store's change updates it.
///
/// Most apps write none: ``PageSourceMediator`` makes one from any ``PageSource``. A custom mediator:
///
/// ```swift
/// struct FeedMediator: RemoteMediator {
///     func load(_ request: RemoteRequest<Post>, completion: RemoteCompletion) -> any Disposable {
///         let task = Task {
///             do {
///                 let page = try await api.posts(after: try request.edgeKey()?.string)
///                 try request.commitPage(page.posts, next: page.next.map(RemoteEdgeKey.next) ?? .end)
///                 completion.finish(.success(endReached: page.next == nil))
///             } catch {
///                 completion.finish(.failure(error))
///             }
///         }
///         return AnyDisposable { task.cancel() }
///     }
/// }
/// ```
///
/// Guarantees the list gives a mediator (each a clause of <doc:TheRemoteMediator>):
/// - ``initialize(_:)`` runs once per list, before any ``load(_:completion:)``.
/// - At most one load per direction runs at a time; a refresh cancels (disposes) the edge loads in flight,
///   and their writes after that commit nothing.
public protocol RemoteMediator<Row>: Sendable {
    /// The type of the rows.
    associatedtype Row: StoreRow

    /// Decides, once per list and before any load, whether the list refreshes from the network when it
    /// opens.
    ///
    /// The default launches the refresh. An error counts as ``RemoteInitialization/launchInitialRefresh``.
    /// - Parameter context: The store and the collection, to read the collection's last refresh and rows.
    /// - Returns: Whether the list refreshes when it opens.
    /// - Throws: Anything; the list then launches the refresh.
    func initialize(_ context: RemoteContext<Row>) throws -> RemoteInitialization

    /// Starts a load of `request`'s direction and reports its end to `completion` once, on any thread.
    ///
    /// - Parameters:
    ///   - request: The direction, the edge row and its stored key (read in one read), and the
    ///     transactions to write with.
    ///   - completion: Takes the result; later results are ignored.
    /// - Returns: What cancels the load: the list disposes it when a refresh supersedes the load.
    func load(_ request: RemoteRequest<Row>, completion: RemoteCompletion) -> any Disposable
}

extension RemoteMediator {
    /// Launches the refresh: the default.
    public func initialize(_ context: RemoteContext<Row>) throws -> RemoteInitialization {
        .launchInitialRefresh
    }
}

/// The store and collection a mediator fills, as ``RemoteMediator/initialize(_:)`` sees them.
public struct RemoteContext<Row: StoreRow>: Sendable {
    /// The store.
    public let store: any LocalStore<Row>
    /// The collection's name.
    public let collection: String

    /// A context of `collection` in `store`.
    package init(store: any LocalStore<Row>, collection: String) {
        self.store = store
        self.collection = collection
    }

    /// Whether the collection's last successful refresh is younger than `maxAge` at `now`, and the
    /// collection holds rows: the rule of a skipped launch refresh.
    ///
    /// A last refresh later than `now` (the clock was set back) counts as stale.
    /// - Parameters:
    ///   - maxAge: How old the cache may be.
    ///   - now: The wall time now.
    /// - Returns: Whether the cache is fresh.
    /// - Throws: The store's read error.
    public func isFresh(maxAge: Duration, now: WallTime) throws -> Bool {
        let name = collection
        let (refreshed, count) = try store.read { reader in
            (try reader.lastRefreshed(of: name), try reader.count(of: name))
        }
        guard let refreshed, count > 0, refreshed <= now else { return false }
        let (seconds, attoseconds) = maxAge.components
        let maxAgeMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        // A stored time far in the past (a damaged row) is stale, never an overflow.
        let (age, overflow) = now.millisecondsSince1970.subtractingReportingOverflow(refreshed.millisecondsSince1970)
        return !overflow && age < maxAgeMilliseconds
    }
}
