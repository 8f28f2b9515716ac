/// One row of a list shown at full length: a loaded item, or a placeholder for the item at that
/// position of the whole list.
public enum ListSlot<Item: Sendable>: Sendable {
    /// The item loaded at this position.
    case item(Item)
    /// A position whose item is not loaded (its index in the whole list).
    case placeholder(Int)

    /// The item, or `nil` for a placeholder.
    @inlinable
    public var item: Item? {
        if case .item(let item) = self { return item }
        return nil
    }
}

extension ListSlot: Equatable where Item: Equatable {}

/// The loaded items between placeholders: a collection of one slot per item of the whole list, so a
/// list has a stable row count and a true scroll bar.
///
/// Slot `i` holds the item at position `i` of the server's list, or ``ListSlot/placeholder(_:)``.
/// Reading any index below `count` never traps, and a placeholder never holds a stale item. Without
/// placeholders (off, or no total and position known) it is the items alone.
public struct PagedSlots<Item: Sendable>: RandomAccessCollection, Sendable {
    /// The loaded items.
    public let items: PagedItems<Item>
    /// How many placeholders come before the items.
    public let placeholdersBefore: Int
    /// How many placeholders come after the items.
    public let placeholdersAfter: Int

    @inlinable
    init(items: PagedItems<Item>, placeholdersBefore: Int, placeholdersAfter: Int) {
        self.items = items
        self.placeholdersBefore = placeholdersBefore
        self.placeholdersAfter = placeholdersAfter
    }

    /// The first slot's index: 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// One past the last slot: the placeholders and the items together.
    @inlinable
    public var endIndex: Int { placeholdersBefore + items.count + placeholdersAfter }

    /// The slot at `index`.
    ///
    /// - Complexity: O(log pages) for an item, O(1) for a placeholder.
    @inlinable
    public subscript(index: Int) -> ListSlot<Item> {
        precondition(index >= 0 && index < endIndex, "slot index \(index) out of range 0..<\(endIndex)")
        let row = index - placeholdersBefore
        return row >= 0 && row < items.count ? .item(items[row]) : .placeholder(index)
    }

    /// The index in ``items`` of the slot at `index`, or `nil` for a placeholder.
    @inlinable
    public func itemIndex(ofSlot index: Int) -> Int? {
        let row = index - placeholdersBefore
        return row >= 0 && row < items.count ? row : nil
    }
}
