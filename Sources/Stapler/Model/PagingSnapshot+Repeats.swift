/// The rules by which each published value skips a snapshot that repeats it, written once: the
/// `Paginator`'s properties and the `PagingModel`'s use them both, so both change at the same snapshots.
///
/// Values that are `Equatable` (`pages`, `total`, `isEndReached`, `showsNextPageIndicator`) skip equal
/// values; `metadata` changes exactly with each publication that applies a page (it may not be
/// `Equatable`). Each rule below compares a snapshot with the one last shown, not only with the one
/// just before it, so an observer that coalesces snapshots (the model) may skip any of them.
extension PagingSnapshot {
    /// Whether both show the same state: the same case, and the same failure if it is an error state
    /// (a state is announced again only when it changes, or when a new failure replaces the shown one).
    @inlinable
    func shows(sameStateAs other: PagingSnapshot) -> Bool {
        state.name == other.state.name && stateFailureSerial == other.stateFailureSerial
    }

    /// Whether both show the same items: the same storage (a page or an edit makes new storage).
    @inlinable
    func shows(sameItemsAs other: PagingSnapshot) -> Bool {
        items.isIdentical(to: other.items)
    }

    /// Whether both show the same screen: presentations of the same shape (errors compared by their
    /// presence) that show the same failures of the refresh and of the bottom, so a new failure replacing
    /// the shown one is shown even when no snapshot between them was (they all loaded).
    @inlinable
    func shows(samePresentationAs other: PagingSnapshot) -> Bool {
        failureSerials.refresh == other.failureSerials.refresh && failureSerials.append == other.failureSerials.append
            && ListPresentation(self).hasSameShape(as: ListPresentation(other))
    }

    /// Whether both show the same load states: the same cases and ends, and the same failures.
    @inlinable
    func shows(sameLoadStatesAs other: PagingSnapshot) -> Bool {
        func same(_ left: LoadState<Failure>, _ right: LoadState<Failure>) -> Bool {
            switch (left, right) {
            case (.failed, .failed): true
            default: left.isSameWithoutError(as: right)
            }
        }
        return same(loadStates.refresh, other.loadStates.refresh) && same(loadStates.prepend, other.loadStates.prepend)
            && same(loadStates.append, other.loadStates.append) && failureSerials == other.failureSerials
    }
}
