import Stapler

/// The response of a fake offset server: a page of items and the total.
public struct TestOffsetResponse<Item: Sendable>: PaginatedResponse {
    /// The items of the page, in order.
    public let items: [Item]
    /// The number of items on the server when the page was answered.
    public let total: Int
}

/// The response of a fake page-number server: a page of items, the item count and the page count.
public struct TestNumberedResponse<Item: Sendable>: NumberedPageResponse {
    /// The items of the page, in order.
    public let items: [Item]
    /// The number of items on the server when the page was answered.
    public let itemCount: Int?
    /// The number of pages of the requested size on the server when the page was answered.
    public let pageCount: Int?
}

/// The response of a fake cursor server: a page of items and opaque cursors to either side of it.
///
/// A cursor is `"c<n>"` (the page from item `n` on) or `"b<n>"` (the page that ends before item `n`);
/// app code must treat it as opaque.
public struct TestCursorResponse<Item: Sendable>: CursorPageResponse {
    /// The items of the page, in order.
    public let items: [Item]
    /// The cursor of the page after this one, or `nil` at the end of the list.
    public let nextCursor: String?
    /// The cursor of the page before this one, or `nil` at the top of the list.
    public let previousCursor: String?
}

/// The response of a fake server that says when it is exhausted.
public struct TestExhaustibleResponse<Item: Sendable>: ExhaustiblePageResponse {
    /// The items of the page, in order.
    public let items: [Item]
    /// Whether this page reaches the end of the list.
    public let isExhausted: Bool
}
