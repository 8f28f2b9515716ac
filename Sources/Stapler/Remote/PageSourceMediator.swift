import Reactive

/// A mediator made from a ``PageSource`` (offset, page number, cursor or custom): the app writes no
/// mediator and no remote-keys table.
///
/// A refresh loads the source's first page and makes it the collection's window, with the keys either
/// side of it and the refresh time, in one transaction; an edge load reads the edge's stored key, loads
/// that page and adds it beyond the edge with the key of the page after it, in one transaction.
///
/// **Positions.** For an API whose order is not a field of its rows (offset and page-number pages shift
/// when rows are inserted at the top of the server's list), give `positionedBy`, a field the mediator
/// fills with the server's position, and order the collection by it, ascending, with explicit membership:
///
/// ```swift
/// let feed = StoreCollection<Post>("feed", membership: .explicit, orderedBy: [.ascending(\.position)])
/// let mediator = PageSourceMediator(source: .offset { offset, size, _ in api.posts(offset, size) },
///                                   keys: .lossless, positionedBy: \.position)
/// ```
///
/// A refresh numbers its rows from 0. An append numbers the rows the store does not hold yet after the
/// edge row's position, a prepend before the first row's; **a row the store already holds keeps its
/// stored position** (its other fields are updated). So when rows inserted at the top shift the next
/// offset page back over rows already shown, those rows neither show twice nor move, and no row is
/// skipped.
///
/// An edge whose stored key is absent or does not decode fails with ``StoreError/missingRemoteKey(id:)``;
/// an edge whose key is the end reports `.success(endReached: true)` without a request.
public struct PageSourceMediator<
    Row: StoreRow, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error
>: RemoteMediator {
    let source: PageSource<Row, Key, Query, Metadata, Failure>
    let query: Query
    let keys: RemoteKeyCoding<Key>
    let position: (WritableKeyPath<Row, Int64> & Sendable)?
    let maxAge: Duration?
    let clock: any WallClock

    /// A mediator that fetches `source`'s pages for `query` into a collection ordered by its rows' own
    /// fields.
    ///
    /// - Parameters:
    ///   - source: The network source.
    ///   - query: The query of every request.
    ///   - keys: How the source's keys are stored.
    ///   - maxAge: How young the collection's last refresh must be for the list to open without a refresh
    ///     (`nil`: it always refreshes). A last refresh in the future counts as stale; an empty collection
    ///     always refreshes.
    ///   - clock: The wall clock `maxAge` is measured by.
    public init(
        source: PageSource<Row, Key, Query, Metadata, Failure>, query: Query, keys: RemoteKeyCoding<Key>,
        maxAge: Duration? = nil, clock: any WallClock = SystemWallClock()
    ) {
        self.source = source
        self.query = query
        self.keys = keys
        self.position = nil
        self.maxAge = maxAge
        self.clock = clock
    }

    /// A mediator that fetches `source`'s pages for `query` and keeps the server's position of each row
    /// in `positionedBy`, the field the collection is ordered by (ascending).
    ///
    /// - Parameters:
    ///   - source: The network source.
    ///   - query: The query of every request.
    ///   - keys: How the source's keys are stored.
    ///   - positionedBy: The row's field that keeps the server's position.
    ///   - maxAge: How young the collection's last refresh must be for the list to open without a refresh
    ///     (`nil`: it always refreshes). A last refresh in the future counts as stale; an empty collection
    ///     always refreshes.
    ///   - clock: The wall clock `maxAge` is measured by.
    public init(
        source: PageSource<Row, Key, Query, Metadata, Failure>, query: Query, keys: RemoteKeyCoding<Key>,
        positionedBy: WritableKeyPath<Row, Int64> & Sendable, maxAge: Duration? = nil,
        clock: any WallClock = SystemWallClock()
    ) {
        self.source = source
        self.query = query
        self.keys = keys
        self.position = positionedBy
        self.maxAge = maxAge
        self.clock = clock
    }

    /// Skips the launch refresh while the collection has rows and its last refresh is younger than
    /// `maxAge`.
    public func initialize(_ context: RemoteContext<Row>) throws -> RemoteInitialization {
        guard let maxAge else { return .launchInitialRefresh }
        return try context.isFresh(maxAge: maxAge, now: clock.now()) ? .skipInitialRefresh : .launchInitialRefresh
    }

    /// Loads the page of `request`'s direction and writes it with its key in one transaction.
    public func load(_ request: RemoteRequest<Row>, completion: RemoteCompletion) -> any Disposable {
        let key: Key
        let pageIndex: Int
        switch request.direction {
        case .refresh:
            key = source.firstKey
            pageIndex = 0
        case .prepend, .append:
            let stored: RemoteEdgeKey?
            do {
                stored = try request.edgeKey()
            } catch {
                completion.finish(.failure(error))
                return AnyDisposable()
            }
            guard case .next(let text) = stored else {
                completion.finish(.success(endReached: true))
                return AnyDisposable()
            }
            guard let decoded = keys.decode(text) else {
                completion.finish(.failure(StoreError.missingRemoteKey(id: request.edgeRow?.storeID)))
                return AnyDisposable()
            }
            key = decoded
            pageIndex = request.direction == .append ? 1 : -1
        }
        let pageRequest = PageRequest(
            key: key, pageSize: request.pageSize, query: query, pageIndex: pageIndex, direction: request.direction)
        let mediator = self
        return source.load(pageRequest) { event in
            switch event {
            case .value(let page):
                do {
                    completion.finish(.success(endReached: try mediator.commit(page, for: request)))
                } catch {
                    completion.finish(.failure(error))
                }
            case .failed(let error):
                completion.finish(.failure(error.sourceError ?? error))
            case .completed:
                completion.finish(.failure(PagingError<Failure>.noPage))
            case .interrupted:
                completion.finish(.failure(CancellationError()))
            }
        }
    }

    /// Writes `page` for `request` in one transaction; returns whether the server ended that way.
    func commit(_ page: Page<Row, Key, Metadata>, for request: RemoteRequest<Row>) throws -> Bool {
        func edgeKey(_ key: Key?) -> RemoteEdgeKey { key.map { .next(keys.encode($0)) } ?? .end }
        switch request.direction {
        case .refresh:
            var rows = page.items
            if let position {
                for index in rows.indices { rows[index][keyPath: position] = Int64(index) }
            }
            try request.commitRefresh(rows, before: edgeKey(page.previousKey), after: edgeKey(page.nextKey))
            return page.previousKey == nil && page.nextKey == nil
        case .prepend, .append:
            let onward = request.direction == .append ? page.nextKey : page.previousKey
            let rows = try positioned(page.items, for: request)
            try request.commitPage(rows, next: edgeKey(onward))
            return onward == nil
        }
    }

    /// `rows` with their positions: a row already stored keeps its own, the others continue from the edge.
    func positioned(_ rows: [Row], for request: RemoteRequest<Row>) throws -> [Row] {
        guard let position else { return rows }
        let stored = try request.store.read { reader in try rows.map { try reader.row($0.storeID) } }
        let fresh = zip(rows, stored).filter { $0.1 == nil }.count
        let edge = request.edgeRow?[keyPath: position] ?? 0
        var next = request.direction == .append ? edge + 1 : edge - Int64(fresh)
        var result = rows
        for index in result.indices {
            if let kept = stored[index] {
                result[index][keyPath: position] = kept[keyPath: position]
            } else {
                result[index][keyPath: position] = next
                next += 1
            }
        }
        return result
    }
}
