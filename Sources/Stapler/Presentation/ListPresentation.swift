/// What a list screen shows for a paginator's state: a pure function of its snapshot.
///
/// The mapping is the one the seed systems converge on (LeadKit's placeholders, TIPagination's UI
/// delegate, Pageable's loading row):
///
/// The screen comes from the state and the number of items:
///
/// | state | no items | items loaded |
/// |---|---|---|
/// | `uninitialized` | ``idle`` | (impossible) |
/// | `refreshing` | ``loading`` | ``content(_:)``, refreshing |
/// | `errorRefreshing` | ``failed(_:)`` | ``content(_:)`` with the refresh error as a notice |
/// | `noData` | ``empty`` | (impossible) |
/// | `data`, `loadingMore`, `errorLoadingMore` | ``content(_:)`` | ``content(_:)`` |
///
/// The footer and ``ListContent/isLoadingMore`` answer "what is at the bottom of the list", from the
/// bottom's load state (``PagingSnapshot/loadStates``' `append`) with ``PagingSnapshot/stopReason``
/// alone, the same answer ``PagingSnapshot/showsNextPageIndicator`` is derived from, so none of them
/// can disagree with `loadStates.append`:
///
/// | `loadStates.append` | footer | ``ListContent/isLoadingMore`` |
/// |---|---|---|
/// | `loading` | ``ListFooter/loadingRow`` | `true` |
/// | `failed(error)` | ``ListFooter/retry(_:)``, or ``ListFooter/unavailable(_:)`` when the error is not ``PagingError/isRetryable`` | `false` |
/// | `idle`, while a refresh loads or its failure stands | ``ListFooter/hidden`` | `false` |
/// | `idle(endReached: false)` | ``ListFooter/loadingRow`` | `false` |
/// | `idle(endReached: true)` | ``ListFooter/end``, or ``ListFooter/unavailable(_:)`` when the server stopped adding items | `false` |
///
/// A later page's error never shows the full-screen error: it is the retry footer under the content.
/// A failed refresh shows the full-screen error only when there are no items to keep showing; over rows
/// it is a notice, `state` stays `errorRefreshing` until a refresh succeeds, and the rows still page: a
/// page loading at the bottom shows the loading row, and its failure the retry footer, under the notice.
/// The top edge's loads and failures are in `loadStates.prepend` (and a transformed list's header),
/// never in this footer.
///
/// The footer says "end" only for a true end. Each ``StopReason`` of the bottom edge has one footer
/// (while no refresh loads or failed):
///
/// | ``PagingSnapshot/stopReason`` | footer |
/// |---|---|
/// | `nil` (pages are left, or one loads) or ``StopReason/cancelled`` | ``ListFooter/loadingRow`` |
/// | ``StopReason/endOfList`` | ``ListFooter/end`` |
/// | ``StopReason/emptyFirstPage`` | ``ListFooter/end`` (with no rows, the screen is ``empty``) |
/// | ``StopReason/noProgress(pages:)`` | ``ListFooter/unavailable(_:)`` with ``PagingError/noProgress(pages:)`` |
/// | ``StopReason/repeatedKey`` | ``ListFooter/unavailable(_:)`` with ``PagingError/repeatedKey`` |
/// | ``StopReason/failed(_:)`` | ``ListFooter/retry(_:)`` when ``PagingError/isRetryable``, else ``ListFooter/unavailable(_:)`` |
///
/// ```swift
/// paginator.presentation.producer.startWithValues { screen in
///     switch screen {
///     case .idle, .content: hideBackground()
///     case .loading: showSpinner()
///     case .empty: showEmptyPlaceholder()
///     case .failed(let error): showErrorPlaceholder(error)
///     }
/// }
/// ```
public enum ListPresentation<Failure: Error>: Sendable {
    /// Nothing was requested yet: show nothing.
    case idle
    /// The first page is loading and there are no items: show the initial loading indicator.
    case loading
    /// The first page came back empty: show the empty placeholder.
    case empty
    /// The first page failed and there are no items: show the error placeholder.
    case failed(PagingError<Failure>)
    /// Show the rows, with the footer and notices described by the content.
    case content(ListContent<Failure>)

    /// What a list screen shows for `snapshot`.
    ///
    /// - Parameter snapshot: A paginator's snapshot.
    /// - Complexity: O(1).
    @inlinable
    public init<Item, Metadata>(_ snapshot: PagingSnapshot<Item, Metadata, Failure>) {
        let count = snapshot.items.count
        switch snapshot.state {
        case .uninitialized where count == 0:
            self = .idle
        case .refreshing where count == 0:
            self = .loading
        case .errorRefreshing(let error) where count == 0:
            self = .failed(error)
        case .noData where count == 0:
            self = .empty
        default:
            let bottom = BottomEdge(snapshot)
            self = .content(
                ListContent(
                    itemCount: count, footer: bottom.footer, isRefreshing: snapshot.loadStates.refresh.isLoading,
                    isLoadingMore: bottom.isLoading, refreshError: snapshot.loadStates.refresh.error))
        }
    }

    /// The rows to show, counting the loading row of a ``ListFooter/loadingRow`` footer (0 for every
    /// full-screen presentation); see ``ListContent/visibleRowCount``.
    @inlinable
    public var visibleRowCount: Int {
        if case .content(let content) = self { return content.visibleRowCount }
        return 0
    }

    /// Whether this and `other` show the same screen, errors compared by whether they are present.
    ///
    /// A paginator reaches an error only through a loading state, so two consecutive presentations
    /// that differ only in their error payload never occur; this lets the paginator skip repeated
    /// presentations without requiring `Failure` to be `Equatable`.
    @inlinable
    func hasSameShape(as other: ListPresentation) -> Bool {
        switch (self, other) {
        case (.idle, .idle), (.loading, .loading), (.empty, .empty): true
        case (.content(let lhs), .content(let rhs)): lhs.hasSameShape(as: rhs)
        default: false
        }
    }
}

extension ListPresentation: Equatable where Failure: Equatable {}

/// The rows of a list screen and what surrounds them.
public struct ListContent<Failure: Error>: Sendable {
    /// The number of loaded items, one row each.
    public var itemCount: Int
    /// What the list shows after its last row.
    public var footer: ListFooter<Failure>
    /// Whether a refresh runs while the old rows stay visible (drive a pull-to-refresh spinner).
    public var isRefreshing: Bool
    /// Whether a page is loading at the bottom right now: the paginator's `loadStates.append` is
    /// `loading` (``footer`` is ``ListFooter/loadingRow`` also while pages are merely left to load: the
    /// row is there before its page loads).
    public var isLoadingMore: Bool
    /// The error of a refresh that failed while rows stay visible: show it as a notice over the rows.
    public var refreshError: PagingError<Failure>?

    /// Creates the description of a list's rows.
    ///
    /// - Parameters:
    ///   - itemCount: The number of loaded items.
    ///   - footer: What follows the last row.
    ///   - isRefreshing: Whether a refresh runs over the rows.
    ///   - isLoadingMore: Whether a later page is loading.
    ///   - refreshError: The error of a failed refresh, if the rows stayed.
    @inlinable
    public init(
        itemCount: Int, footer: ListFooter<Failure>, isRefreshing: Bool = false, isLoadingMore: Bool = false,
        refreshError: PagingError<Failure>? = nil
    ) {
        self.itemCount = itemCount
        self.footer = footer
        self.isRefreshing = isRefreshing
        self.isLoadingMore = isLoadingMore
        self.refreshError = refreshError
    }

    /// The number of rows to show: the items, plus one loading row while the footer is
    /// ``ListFooter/loadingRow`` (Pageable's `visibleRow()`).
    ///
    /// Call `Paginator.preload(index:)` as each row is displayed. The loading row lies past the items,
    /// so its display loads nothing: with a prefetch distance of 0, the last item row loads the next page.
    @inlinable
    public var visibleRowCount: Int {
        if case .loadingRow = footer { return itemCount + 1 }
        return itemCount
    }

    /// What row `index` of a list with ``visibleRowCount`` rows shows.
    ///
    /// - Parameter index: A row index in `0..<visibleRowCount`; others are `nil` (a stale index from a
    ///   table that has not reloaded yet never traps).
    /// - Returns: The item row or the loading row at `index`.
    @inlinable
    public func row(at index: Int) -> ListRow? {
        guard index >= 0, index < visibleRowCount else { return nil }
        return index < itemCount ? .item(index) : .loading
    }

    @inlinable
    func hasSameShape(as other: ListContent) -> Bool {
        itemCount == other.itemCount && isRefreshing == other.isRefreshing && isLoadingMore == other.isLoadingMore
            && (refreshError == nil) == (other.refreshError == nil) && footer.hasSameShape(as: other.footer)
    }
}

extension ListContent: Equatable where Failure: Equatable {}

/// What a list shows after its last row.
public enum ListFooter<Failure: Error>: Sendable {
    /// No footer: a refresh is replacing the rows, or its failure stands (shown as a notice), and
    /// nothing loads or failed at the bottom.
    case hidden
    /// A loading row: pages are left, and one loads now (``ListContent/isLoadingMore``) or when the last
    /// rows are displayed. It answers "is there more to show", not "is a page loading": that is
    /// ``ListContent/isLoadingMore``, and the paginator's `loadStates.append`.
    case loadingRow
    /// An "unavailable" notice: the later page failed in a way retrying cannot fix
    /// (``PagingError/isRetryable`` is `false`: a key that loops, a server that adds nothing); a refresh
    /// is the way on.
    case unavailable(PagingError<Failure>)
    /// A retry button: the later page in this error failed, and `Paginator.retry()` requests it again.
    case retry(PagingError<Failure>)
    /// The end of the list: every page was loaded.
    case end

    @inlinable
    func hasSameShape(as other: ListFooter) -> Bool {
        switch (self, other) {
        case (.hidden, .hidden), (.loadingRow, .loadingRow), (.end, .end), (.retry, .retry),
            (.unavailable, .unavailable):
            true
        default: false
        }
    }
}

extension ListFooter: Equatable where Failure: Equatable {}

/// One row of a list screen: an item, or the loading row that follows the items while pages are left.
public enum ListRow: Sendable, Equatable {
    /// The item at this index of the paginator's items.
    case item(Int)
    /// The loading row after the last item.
    case loading
}
