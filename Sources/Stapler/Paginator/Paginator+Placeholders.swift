import Reactive

extension Paginator {
    /// The items at full length: placeholders for the rows not loaded, when the paginator's options show
    /// them (``PagingOptions/placeholders``) and the pages say where they sit in a list of known total (offset +
    /// total, page number + count, or ``Page/itemsBefore`` with ``Page/total``); the items alone
    /// otherwise.
    ///
    /// With placeholders, ``preload(index:)`` takes slot indices: a placeholder near the loaded rows
    /// loads the page at that edge, one farther than the jump threshold loads its own page directly.
    @inlinable
    public var slots: Property<PagedSlots<Item>> {
        engine.property(.slots, { $0.slots }, skippingSnapshots: { $0.hasSameSlots(as: $1) })
    }

    /// Each change of ``slots`` with the slots before and after it: a page that fills placeholders is
    /// ``ItemsChange/updated(_:)``; a total that moves inserts or removes slots at the end.
    @inlinable
    public var slotUpdates: Signal<SlotsUpdate<Item>, Never> {
        engine.signal(.slotUpdates) { $0.slotsUpdate }
    }
}

extension PagingSnapshot {
    /// Whether both show the same slots: the same items and the same placeholder counts.
    @inlinable
    func hasSameSlots(as other: PagingSnapshot) -> Bool {
        items.isIdentical(to: other.items) && placeholdersBefore == other.placeholdersBefore
            && placeholdersAfter == other.placeholdersAfter
    }
}
