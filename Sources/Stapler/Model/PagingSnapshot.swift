/// Everything a paginator publishes, as one consistent value.
///
/// Every property of a paginator is a view of its latest snapshot, and all of them change together:
/// an observer of one already reads the new values of the others.
public struct PagingSnapshot<Item: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    /// The explicit state, derived from ``loadStates``: `refreshing` while a refresh loads,
    /// `errorRefreshing` while a refresh failure stands, `loadingMore` while a page loads at either
    /// edge, `errorLoadingMore` while an edge's failure waits for `retry()`.
    public var state: PagingState<Failure>
    /// The load state of each direction: refresh, prepend (the top edge) and append (the bottom edge).
    public var loadStates: LoadStates<Failure>
    /// The loaded items.
    public var items: PagedItems<Item>
    /// How many pages the list holds (an empty last page counts).
    public var pages: Int
    /// The total the latest page reported, if any.
    public var total: Int?
    /// Whether the bottom of the list was reached: no next key, or an empty page.
    public var isEndReached: Bool
    /// The metadata of the latest applied page.
    public var metadata: Metadata?
    /// Increases with every refresh; results of older generations are never applied.
    public var generation: UInt64
    /// Whether a list should show its "loading more" footer: from the start of the second page's load
    /// while pages are left, but not while a later page's error waits for `retry()`.
    public var showsNextPageIndicator: Bool
    /// How many rows were prepended at the top since the list's first page: a row at index `i` of an
    /// earlier snapshot of the same list is at `i + leadingCount - earlier.leadingCount` now.
    public var leadingCount: Int
    /// Increases each time a first page replaces the list; indices of snapshots with another serial
    /// refer to another list.
    @usableFromInline var listSerial: UInt64

    @inlinable
    init(
        state: PagingState<Failure>, loadStates: LoadStates<Failure>, items: PagedItems<Item>, pages: Int,
        total: Int?, isEndReached: Bool, metadata: Metadata?, generation: UInt64, showsNextPageIndicator: Bool,
        leadingCount: Int, listSerial: UInt64
    ) {
        self.state = state
        self.loadStates = loadStates
        self.items = items
        self.pages = pages
        self.total = total
        self.isEndReached = isEndReached
        self.metadata = metadata
        self.generation = generation
        self.showsNextPageIndicator = showsNextPageIndicator
        self.leadingCount = leadingCount
        self.listSerial = listSerial
    }

    /// The snapshot of a paginator that has done nothing yet.
    @inlinable
    public static var initial: PagingSnapshot {
        PagingSnapshot(
            state: .uninitialized, loadStates: .initial, items: PagedItems(), pages: 0, total: nil, isEndReached: false,
            metadata: nil, generation: 0, showsNextPageIndicator: false, leadingCount: 0, listSerial: 0)
    }
}
