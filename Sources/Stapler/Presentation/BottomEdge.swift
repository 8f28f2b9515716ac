/// The one answer to "what is at the bottom of the list", from which every bottom-edge answer is
/// derived: ``ListPresentation``'s footer and ``ListContent/isLoadingMore``, and
/// ``PagingSnapshot/showsNextPageIndicator`` (the facade's `shouldShowNextPageActivityIndicator`).
///
/// It reads the bottom's load state (``LoadStates/append``), the refresh direction's and
/// ``PagingSnapshot/stopReason``, and nothing else, so none of those answers can disagree with
/// `loadStates.append`:
///
/// | `append` | refresh loading or failed | otherwise |
/// |---|---|---|
/// | `loading` | ``ListFooter/loadingRow``, loading | ``ListFooter/loadingRow``, loading |
/// | `failed(error)` | ``ListFooter/retry(_:)`` (``ListFooter/unavailable(_:)`` when not retryable) | the same |
/// | `idle(endReached: false)` | ``ListFooter/hidden`` | ``ListFooter/loadingRow`` |
/// | `idle(endReached: true)` | ``ListFooter/hidden`` | ``ListFooter/end`` (``ListFooter/unavailable(_:)`` for ``StopReason/noProgress(pages:)``) |
///
/// While a refresh loads or its failure stands, an idle bottom shows no footer: the refresh's spinner
/// or notice is the answer then. A load at the bottom of the rows a failed refresh kept shows its
/// loading row, and its failure its footer, as at any other time.
@usableFromInline
struct BottomEdge<Failure: Error>: Sendable {
    /// What the list shows after its last row.
    @usableFromInline let footer: ListFooter<Failure>
    /// Whether a page loads at the bottom now (`loadStates.append` is `loading`).
    @usableFromInline let isLoading: Bool

    /// The bottom of a list whose directions are in `loadStates`, stopped for `stopReason`.
    @inlinable
    init(_ loadStates: LoadStates<Failure>, stopReason: StopReason<Failure>?) {
        switch loadStates.append {
        case .loading:
            footer = .loadingRow
            isLoading = true
        case .failed(let error):
            footer = error.isRetryable ? .retry(error) : .unavailable(error)
            isLoading = false
        case .idle(let endReached):
            isLoading = false
            if loadStates.refresh.isLoading || loadStates.refresh.error != nil {
                footer = .hidden
            } else if !endReached {
                footer = .loadingRow
            } else if case .noProgress(let pages)? = stopReason {
                // The server stopped adding items while it still named a next page: not a true end.
                footer = .unavailable(.noProgress(pages: pages))
            } else {
                footer = .end
            }
        }
    }

    /// The bottom of `snapshot`'s list.
    @inlinable
    init<Item, Metadata>(_ snapshot: PagingSnapshot<Item, Metadata, Failure>) {
        self.init(snapshot.loadStates, stopReason: snapshot.stopReason)
    }

    /// The original Stapler's next-page indicator: on while the footer is the loading row, once a page
    /// after the first was requested for the list shown.
    ///
    /// - Parameter laterPageRequested: Whether a page after the first was requested since the list's
    ///   first page.
    /// - Returns: Whether the indicator shows.
    @inlinable
    func showsNextPageIndicator(laterPageRequested: Bool) -> Bool {
        guard laterPageRequested, case .loadingRow = footer else { return false }
        return true
    }
}
