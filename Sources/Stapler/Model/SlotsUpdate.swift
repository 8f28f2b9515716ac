/// A change of the slots with the slots before and after it (see ``Paginator/slotUpdates``).
///
/// Indices follow the same rules as ``ItemsUpdate``'s: a page that fills placeholders is
/// ``ItemsChange/updated(_:)``, a total that grows or shrinks inserts or removes slots at the end.
public struct SlotsUpdate<Item: Sendable>: Sendable {
    /// The slots before the change.
    public let previous: PagedSlots<Item>
    /// The slots after the change.
    public let slots: PagedSlots<Item>
    /// How the slots changed.
    public let change: ItemsChange

    @inlinable
    init(previous: PagedSlots<Item>, slots: PagedSlots<Item>, change: ItemsChange) {
        self.previous = previous
        self.slots = slots
        self.change = change
    }
}
