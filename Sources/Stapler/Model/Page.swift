/// One page as a page source answers it: the items, where the list goes on, and what else it knows.
///
/// The paginator decides each end of the list from the pages alone: a `nil` ``nextKey`` ends the bottom
/// and a `nil` ``previousKey`` the top; an empty page ends the edge it was loaded for (both, for the
/// first page of a generation), whatever ``total`` says, so a server that over-reports its total cannot
/// make the paginator loop.
public struct Page<Item: Sendable, Key: Sendable, Metadata: Sendable>: Sendable {
    /// The items of the page, in order.
    public var items: [Item]
    /// The key of the page before this one, or `nil` if this is the first page of the list.
    public var previousKey: Key?
    /// The key of the next page, or `nil` if this is the last page.
    public var nextKey: Key?
    /// The total number of items the server reports, if it reports one.
    public var total: Int?
    /// Whatever else the page carries (a page number, a bank of defaults, a server time...).
    public var metadata: Metadata
    /// How many items of the whole list lie before this page, if the source knows.
    ///
    /// It is an offset, or the items of the pages before a page number. With ``total`` it places the page
    /// in a list shown at full length with placeholders; a negative count is ignored.
    public var itemsBefore: Int?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - previousKey: The key of the page before this one; `nil` (the default) means the top of the list.
    ///   - nextKey: The key of the next page; `nil` ends the list.
    ///   - total: The total item count the server reports, if any.
    ///   - metadata: Extra fields of the page.
    @inlinable
    public init(items: [Item], previousKey: Key? = nil, nextKey: Key?, total: Int? = nil, metadata: Metadata) {
        self.items = items
        self.previousKey = previousKey
        self.nextKey = nextKey
        self.total = total
        self.metadata = metadata
    }
}

extension Page where Metadata == Void {
    /// Creates a page with no metadata.
    ///
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - previousKey: The key of the page before this one; `nil` (the default) means the top of the list.
    ///   - nextKey: The key of the next page; `nil` ends the list.
    ///   - total: The total item count the server reports, if any.
    @inlinable
    public init(items: [Item], previousKey: Key? = nil, nextKey: Key?, total: Int? = nil) {
        self.init(items: items, previousKey: previousKey, nextKey: nextKey, total: total, metadata: ())
    }
}
