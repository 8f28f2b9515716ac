/// Everything a paginator publishes, as one consistent value.
///
/// Every property of a paginator is a view of its latest snapshot, and all of them change together:
/// an observer of one already reads the new values of the others.
public struct PagingSnapshot<Item: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    /// The explicit state, derived from ``loadStates``: `refreshing` while a refresh loads,
    /// `errorRefreshing` while a refresh failure stands, `loadingMore` while a page loads at either
    /// edge, `errorLoadingMore` while an edge's failure waits for `retry()`.
    ///
    /// A refresh failure comes first: after a failed refresh over rows it stays `errorRefreshing` while
    /// those rows page, so what is at the bottom is told by ``loadStates`` (its `append`) and
    /// ``stopReason``, from which the presentation's footer and ``showsNextPageIndicator`` are derived.
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
    /// The original Stapler's next-page indicator (the facade's `shouldShowNextPageActivityIndicator`).
    ///
    /// It is on while ``ListPresentation``'s footer is the loading row, from the start of the second
    /// page's load: while a page loads at the bottom (also under a failed refresh's notice) and while
    /// pages are left; off while a later page's error waits for `retry()`, at the end, during a refresh,
    /// and while a failed refresh's notice shows over an idle bottom.
    public var showsNextPageIndicator: Bool
    /// How many rows were prepended at the top since the list's first page, minus those a memory bound
    /// dropped there (so it is negative once the first page itself was dropped): a row at index `i` of an
    /// earlier snapshot of the same list is at `i + leadingCount - earlier.leadingCount` now.
    public var leadingCount: Int
    /// Why loading stopped at the bottom of the list, or `nil` while it can go on (or goes on).
    public var stopReason: StopReason<Failure>?
    /// How many placeholder slots come before the items, when placeholders are on and the pages say
    /// where they sit in a list of known total (0 otherwise).
    public var placeholdersBefore = 0
    /// How many placeholder slots come after the items, up to the total (0 without placeholders).
    public var placeholdersAfter = 0
    /// Whether the list shown was not loaded in this generation: it came from a ``QueryCache`` or a saved
    /// state and no refresh has replaced it since (its revalidation may be loading).
    public var isStale = false
    /// For each direction whose load failed, the serial of that failure (0 otherwise): two snapshots
    /// with the same state and the same serials show the same failures, which are not announced again.
    @usableFromInline var failureSerials: FailureSerials = FailureSerials()
    /// The serial of the failure ``state`` shows, if it is an error state (0 otherwise).
    @usableFromInline var stateFailureSerial: UInt64 = 0
    /// Increases each time a first page replaces the list; indices of snapshots with another serial
    /// refer to another list.
    @usableFromInline package var listSerial: UInt64

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
        stopReason = nil
    }

    /// The snapshot of a paginator that has done nothing yet.
    @inlinable
    public static var initial: PagingSnapshot {
        PagingSnapshot(
            state: .uninitialized, loadStates: .initial, items: PagedItems(), pages: 0, total: nil, isEndReached: false,
            metadata: nil, generation: 0, showsNextPageIndicator: false, leadingCount: 0, listSerial: 0)
    }
}

extension PagingSnapshot {
    /// The items between their placeholders: one slot per item of the whole list.
    @inlinable
    public var slots: PagedSlots<Item> {
        PagedSlots(items: items, placeholdersBefore: placeholdersBefore, placeholdersAfter: placeholdersAfter)
    }
}

/// The serials of the failures a snapshot shows, one per direction (0 for none).
@usableFromInline
struct FailureSerials: Sendable, Equatable {
    @usableFromInline var refresh: UInt64 = 0
    @usableFromInline var prepend: UInt64 = 0
    @usableFromInline var append: UInt64 = 0

    @inlinable
    init() {}
}
