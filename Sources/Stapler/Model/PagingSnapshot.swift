/// Everything a paginator publishes, as one consistent value.
///
/// Every property of a paginator is a view of its latest snapshot, and all of them change together:
/// an observer of one already reads the new values of the others.
public struct PagingSnapshot<Item: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    /// The explicit state.
    public var state: PagingState<Failure>
    /// The loaded items.
    public var items: PagedItems<Item>
    /// How many pages of the current generation were applied (an empty last page counts).
    public var pages: Int
    /// The total the latest page reported, if any.
    public var total: Int?
    /// Whether the last page was reached: no next key, or an empty page.
    public var isEndReached: Bool
    /// The metadata of the latest applied page.
    public var metadata: Metadata?
    /// Increases with every refresh; results of older generations are never applied.
    public var generation: UInt64
    /// Whether a list should show its "loading more" footer: from the start of the second page's load
    /// while pages are left, but not while a later page's error waits for `retry()`.
    public var showsNextPageIndicator: Bool

    @inlinable
    init(
        state: PagingState<Failure>, items: PagedItems<Item>, pages: Int, total: Int?, isEndReached: Bool,
        metadata: Metadata?, generation: UInt64, showsNextPageIndicator: Bool
    ) {
        self.state = state
        self.items = items
        self.pages = pages
        self.total = total
        self.isEndReached = isEndReached
        self.metadata = metadata
        self.generation = generation
        self.showsNextPageIndicator = showsNextPageIndicator
    }

    /// The snapshot of a paginator that has done nothing yet.
    @inlinable
    public static var initial: PagingSnapshot {
        PagingSnapshot(
            state: .uninitialized, items: PagedItems(), pages: 0, total: nil, isEndReached: false,
            metadata: nil, generation: 0, showsNextPageIndicator: false)
    }
}
