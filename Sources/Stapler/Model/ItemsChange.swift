/// What changed in the items, so a list can apply inserts instead of reloading.
///
/// Each change is delivered together with the snapshot it produced (``ItemsUpdate``).
public enum ItemsChange: Sendable, Equatable {
    /// The items were replaced as a whole (a first page arrived).
    case reloaded
    /// Items were appended at these indices of the new snapshot.
    case appended(Range<Int>)
    /// The items were removed (a first page came back empty).
    case cleared
}

/// A new snapshot of the items with the change that produced it from the previous one.
///
/// For ``ItemsChange/appended(_:)``, `previous.count == range.lowerBound` and
/// `items.count == range.upperBound`.
public struct ItemsUpdate<Item: Sendable>: Sendable {
    /// The snapshot before the change.
    public let previous: PagedItems<Item>
    /// The snapshot after the change.
    public let items: PagedItems<Item>
    /// What changed.
    public let change: ItemsChange
}
