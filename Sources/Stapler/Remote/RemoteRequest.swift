import Reactive

/// What a mediator stores as an edge's remote key: the server's key of the next page that way, or the
/// end of the server's list.
///
/// The store keeps it as a string (``StoreRemoteKeys``); a key that is absent there while the collection
/// has rows is a ``StoreError/missingRemoteKey(id:)``, never taken for the end.
public enum RemoteEdgeKey: Hashable, Sendable {
    /// The server's key of the next page in that direction.
    case next(String)
    /// The server has nothing further in that direction.
    case end

    /// The key as the store keeps it.
    public var stored: String {
        switch self {
        case .next(let key): "next:" + key
        case .end: "end"
        }
    }

    /// The key the store kept as `stored`, or `nil` when there is none or it is not one of ours.
    public init?(stored: String?) {
        guard let stored else { return nil }
        if stored == "end" {
            self = .end
        } else if stored.hasPrefix("next:") {
            self = .next(String(stored.dropFirst(5)))
        } else {
            return nil
        }
    }

    /// The server's key, or `nil` at the end.
    public var string: String? {
        if case .next(let key) = self { return key }
        return nil
    }
}

/// One remote load a list asks of its mediator: the direction, the edge as the store holds it, and the
/// transactions the mediator writes with.
///
/// The edge row and the stored keys are read in one read of the store when the load starts. Every write
/// goes through ``write(_:)`` (or the helpers built on it), which commits nothing once the load was
/// cancelled: a load a refresh superseded never writes after the refresh started.
public struct RemoteRequest<Row: StoreRow>: Sendable {
    /// The direction: a refresh replaces the collection's window, an edge load adds beyond the edge.
    public let direction: PageDirection
    /// The collection's row at the edge: its last row for an append, its first for a prepend, `nil` for a
    /// refresh or an empty collection.
    public let edgeRow: Row?
    /// The collection's stored remote keys, read with ``edgeRow``.
    public let keys: StoreRemoteKeys
    /// How many rows a page holds.
    public let pageSize: Int
    /// The store.
    public let store: any LocalStore<Row>
    /// The collection's name.
    public let collection: String
    /// The load's ticket: cancellation and the versions of its commits.
    let ticket: RemoteTicket

    init(
        direction: PageDirection, edgeRow: Row?, keys: StoreRemoteKeys, pageSize: Int, store: any LocalStore<Row>,
        collection: String, ticket: RemoteTicket
    ) {
        self.direction = direction
        self.edgeRow = edgeRow
        self.keys = keys
        self.pageSize = pageSize
        self.store = store
        self.collection = collection
        self.ticket = ticket
    }

    /// Whether the list cancelled the load (a refresh superseded it, or the list went away).
    public var isCancelled: Bool { ticket.isCancelled }

    /// The stored key of the request's edge: `nil` for a refresh.
    ///
    /// - Throws: ``StoreError/missingRemoteKey(id:)`` when the edge has no stored key (naming the edge row).
    public func edgeKey() throws(StoreError) -> RemoteEdgeKey? {
        let stored: String?
        switch direction {
        case .refresh: return nil
        case .prepend: stored = keys.before
        case .append: stored = keys.after
        }
        guard let key = RemoteEdgeKey(stored: stored) else { throw .missingRemoteKey(id: edgeRow?.storeID) }
        return key
    }

    /// Commits one transaction of `body`, unless the load was cancelled.
    ///
    /// The store checks the cancellation under its write lock, before it writes, so a load cancelled before
    /// its write began (a refresh that superseded it) commits nothing, and every commit of the refresh that
    /// cancelled it comes after. No lock of the list is held while the store sends its change, so an
    /// observer of the store's changes may refresh this list, or make its mediator write, at once.
    /// - Parameter body: Records the writes.
    /// - Returns: The store's change.
    /// - Throws: `CancellationError` when the load was cancelled; what `body` or the store throws.
    @discardableResult
    public func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange {
        try ticket.write(to: store, body)
    }

    /// Makes `rows` the collection's window with `before` and `after` as its edge keys, and stamps its last
    /// refresh: rows, keys, the old membership's removal and the time commit together or not at all.
    ///
    /// - Parameters:
    ///   - rows: The server's first page, in order.
    ///   - before: The key of the page before it.
    ///   - after: The key of the page after it.
    /// - Throws: As ``write(_:)``.
    public func commitRefresh(_ rows: [Row], before: RemoteEdgeKey, after: RemoteEdgeKey) throws {
        let name = collection
        try write { tx in
            tx.replaceWindow(of: name, rows: rows, keys: StoreRemoteKeys(before: before.stored, after: after.stored))
        }
    }

    /// Adds `rows` beyond the request's edge and stores `next` as that edge's key, in one commit.
    ///
    /// - Parameters:
    ///   - rows: The server's page.
    ///   - next: The key of the page beyond it.
    /// - Throws: As ``write(_:)``.
    public func commitPage(_ rows: [Row], next: RemoteEdgeKey) throws {
        let name = collection
        let edge: StoreEdge = direction == .prepend ? .before : .after
        try write { tx in tx.append(to: name, rows: rows, key: next.stored, edge: edge) }
    }
}

/// Takes the result of one remote load, once.
public final class RemoteCompletion: Sendable {
    // Guarded by its own lock (`LockedState`).
    private let receiver: LockedState<(@Sendable (RemoteResult) -> Void)?>

    init(_ receiver: @escaping @Sendable (RemoteResult) -> Void) {
        self.receiver = LockedState(receiver)
    }

    /// Reports how the load ended; only the first call counts, from any thread.
    ///
    /// - Parameter result: The result.
    public func finish(_ result: RemoteResult) {
        let receive = receiver.withLock { receiver -> (@Sendable (RemoteResult) -> Void)? in
            defer { receiver = nil }
            return receiver
        }
        receive?(result)
    }
}

/// A load's cancellation.
final class RemoteTicket: Sendable {
    // Guarded by its own lock (`LockedState`): whether the load was cancelled.
    private let cancelled = LockedState(false)

    init() {}

    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Marks the load cancelled: a write that has not begun commits nothing.
    func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// Commits `body` to `store` unless the load is cancelled when the store, holding its write lock, is
    /// about to write it.
    func write<Row: StoreRow>(
        to store: any LocalStore<Row>, _ body: (inout StoreTransaction<Row>) throws -> Void
    ) throws -> StoreChange {
        try store.write { transaction in
            transaction.commitCondition = { [self] in !isCancelled }
            try body(&transaction)
        }
    }
}
