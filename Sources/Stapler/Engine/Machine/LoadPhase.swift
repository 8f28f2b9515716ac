/// One direction's load: nothing, a load in flight, or the request that failed (what `retry()` asks
/// for again).
@usableFromInline
enum LoadPhase<Key: Sendable, Query: Sendable, Failure: Error> {
    case idle
    case loading(PageLoad<Key, Query>)
    case failed(PagingError<Failure>, PageRequest<Key, Query>)

    /// The load in flight.
    @inlinable
    var load: PageLoad<Key, Query>? {
        if case .loading(let load) = self { return load }
        return nil
    }

    /// Whether a load is in flight; unlike `load != nil`, it copies nothing.
    @inlinable
    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether the request failed; unlike `error != nil`, it copies nothing.
    @inlinable
    var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Whether the load in flight has `ticket`.
    @inlinable
    func holds(_ ticket: UInt64) -> Bool {
        if case .loading(let load) = self { return load.ticket == ticket }
        return false
    }

    /// The error of the failed request.
    @inlinable
    var error: PagingError<Failure>? {
        if case .failed(let error, _) = self { return error }
        return nil
    }

    /// The public state of this phase, given whether its edge of the list was reached.
    @inlinable
    func loadState(endReached: Bool) -> LoadState<Failure> {
        switch self {
        case .idle: .idle(endReached: endReached)
        case .loading: .loading
        case .failed(let error, _): .failed(error)
        }
    }
}

/// A load in flight: its ticket (what its answers must carry to be applied) and its request.
@usableFromInline
struct PageLoad<Key: Sendable, Query: Sendable> {
    @usableFromInline let ticket: UInt64
    @usableFromInline let request: PageRequest<Key, Query>

    @inlinable
    init(ticket: UInt64, request: PageRequest<Key, Query>) {
        self.ticket = ticket
        self.request = request
    }
}

/// The requests of a refresh that asks several pages at once (every shown page in parallel, or the pages
/// up front), and how many of them may run at once.
///
/// The machine keeps it beside its refresh load (``PagingMachine/refreshBatch``), not in the load: a
/// ``PageLoad`` of plain keys is copied as plain bytes, while one holding a reference is copied through
/// the runtime's generic witnesses, several times a page in every list.
@usableFromInline
final class PageBatch<Key: Sendable, Query: Sendable>: Sendable {
    /// Every page's request, in list order.
    @usableFromInline let requests: [PageRequest<Key, Query>]
    /// How many requests may run at once.
    @usableFromInline let maxConcurrent: Int

    @inlinable
    init(requests: [PageRequest<Key, Query>], maxConcurrent: Int) {
        self.requests = requests
        self.maxConcurrent = maxConcurrent
    }
}

/// The keys of one loaded page, as the server sent them, and its rows' identities when deduplicating.
@usableFromInline
struct PageKeys<Key: Sendable> {
    /// The key the page was requested with.
    @usableFromInline let key: Key
    /// The key of the page before it, `nil` at the top.
    @usableFromInline let previousKey: Key?
    /// The key of the page after it, `nil` at the bottom.
    @usableFromInline let nextKey: Key?
    /// The identity of each row of the page, in order, when deduplicating: a dropped page's rows are
    /// forgotten by them, with no call to the identity under the engine's lock.
    @usableFromInline var identities: ContiguousArray<ItemIdentity>?
    /// How many items of the whole list lie before the page, if its source said (``Page/itemsBefore``).
    @usableFromInline var itemsBefore: Int?

    @inlinable
    init(
        key: Key, previousKey: Key?, nextKey: Key?, identities: ContiguousArray<ItemIdentity>? = nil,
        itemsBefore: Int? = nil
    ) {
        self.key = key
        self.previousKey = previousKey
        self.nextKey = nextKey
        self.identities = identities
        self.itemsBefore = itemsBefore.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// The keys of the loaded pages, in list order; adding or removing a page at either end is O(1),
/// amortised.
///
/// Pages prepended are kept in reverse in `front`, pages appended in order in `back`.
@usableFromInline
struct PageKeyList<Key: Sendable> {
    @usableFromInline var front: ContiguousArray<PageKeys<Key>> = []
    @usableFromInline var back: ContiguousArray<PageKeys<Key>> = []

    @inlinable
    init() {}

    @inlinable
    var count: Int { front.count + back.count }

    @inlinable
    var first: PageKeys<Key>? { front.last ?? back.first }

    @inlinable
    var last: PageKeys<Key>? { back.last ?? front.first }

    @inlinable
    subscript(index: Int) -> PageKeys<Key> {
        get { index < front.count ? front[front.count - 1 - index] : back[index - front.count] }
        set {
            if index < front.count {
                front[front.count - 1 - index] = newValue
            } else {
                back[index - front.count] = newValue
            }
        }
    }

    @inlinable
    mutating func append(_ keys: PageKeys<Key>) { back.append(keys) }

    @inlinable
    mutating func prepend(_ keys: PageKeys<Key>) { front.append(keys) }

    /// Removes the top page's keys.
    ///
    /// - Complexity: O(1) when pages were prepended, else O(pages) (a bounded list holds few).
    @inlinable
    mutating func removeFirst() -> PageKeys<Key> {
        front.isEmpty ? back.removeFirst() : front.removeLast()
    }

    /// Removes the bottom page's keys.
    ///
    /// - Complexity: O(1) when pages were appended, else O(pages) (a bounded list holds few).
    @inlinable
    mutating func removeLast() -> PageKeys<Key> {
        back.isEmpty ? front.removeFirst() : back.removeLast()
    }

    @inlinable
    mutating func removeAll() {
        front.removeAll()
        back.removeAll()
    }
}
