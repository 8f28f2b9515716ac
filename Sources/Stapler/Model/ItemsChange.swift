/// What changed in the items, so a list can apply inserts instead of reloading.
///
/// Each change is delivered together with the snapshot it produced (``ItemsUpdate``). Together the
/// three cases are a data delegate: ``reloaded`` is "replace everything with the first page",
/// ``appended(_:)`` is "a later page arrived, insert these rows", ``cleared`` is "remove every row".
public enum ItemsChange: Sendable, Equatable {
    /// The items were replaced as a whole (a first page arrived).
    case reloaded
    /// Items were appended at these indices of the new snapshot.
    case appended(Range<Int>)
    /// The items were removed (a first page came back empty while items were shown).
    case cleared
}

/// A new snapshot of the items with the change that produced it from the previous one, and the
/// metadata of the page that made it.
///
/// For ``ItemsChange/appended(_:)``, `previous.count == range.lowerBound` and
/// `items.count == range.upperBound`, so `items[range]` are exactly the new rows.
///
/// ```swift
/// paginator.updates.observeValues { update in
///     switch update.change {
///     case .reloaded: table.replaceAll(with: Array(update.items))
///     case .appended(let rows): table.insert(update.items[rows], at: rows)
///     case .cleared: table.removeAll()
///     }
///     banner.defaultBank = update.metadata?.defaultBank
/// }
/// ```
public struct ItemsUpdate<Item: Sendable, Metadata: Sendable>: Sendable {
    /// The snapshot before the change.
    public let previous: PagedItems<Item>
    /// The snapshot after the change.
    public let items: PagedItems<Item>
    /// What changed.
    public let change: ItemsChange
    /// The metadata of the page whose arrival made the change (what the page carried besides items).
    public let metadata: Metadata?

    @inlinable
    init(previous: PagedItems<Item>, items: PagedItems<Item>, change: ItemsChange, metadata: Metadata?) {
        self.previous = previous
        self.items = items
        self.change = change
        self.metadata = metadata
    }

    /// The items this update added: the appended rows, every row of a reload, none for a clear.
    @inlinable
    public var newItems: Slice<PagedItems<Item>> {
        switch change {
        case .appended(let rows): items[rows]
        case .reloaded: items[...]
        case .cleared: items[items.endIndex...]
        }
    }
}
