/// A response of page-number paging: one page of items, and the page count or item count if the
/// server reports one.
///
/// Conform your decoded response type; the counts default to `nil` (unknown), in which case only an
/// empty page ends the list (a short page does not: a server may cap its pages below the page size).
public protocol NumberedPageResponse: Sendable {
    /// The type of the listed items.
    associatedtype Item: Sendable
    /// The items of this page, in order.
    var items: [Item] { get }
    /// The number of pages on the server, if reported.
    var pageCount: Int? { get }
    /// The number of items on the server, if reported.
    var itemCount: Int? { get }
}

extension NumberedPageResponse {
    /// No page count is reported by default.
    public var pageCount: Int? { nil }
    /// No item count is reported by default.
    public var itemCount: Int? { nil }
}

/// A response of cursor (token) paging: one page of items and the cursor of the next page.
public protocol CursorPageResponse: Sendable {
    /// The type of the listed items.
    associatedtype Item: Sendable
    /// The type of the opaque cursor.
    associatedtype Cursor: Hashable & Sendable
    /// The items of this page, in order.
    var items: [Item] { get }
    /// The cursor of the next page, or `nil` if this is the last page.
    var nextCursor: Cursor? { get }
    /// The cursor of the page before this one, or `nil` at the top (or when the API has none).
    var previousCursor: Cursor? { get }
}

extension CursorPageResponse {
    /// No previous cursor by default: the list pages one way.
    public var previousCursor: Cursor? { nil }
}

/// A response of a source that says when it is exhausted (TIPagination's cursors).
public protocol ExhaustiblePageResponse: Sendable {
    /// The type of the listed items.
    associatedtype Item: Sendable
    /// The items of this page, in order.
    var items: [Item] { get }
    /// Whether this is the last page.
    var isExhausted: Bool { get }
}

/// The key of a page-number source: the page number to request, and how many items came before it.
public struct PageNumberKey: Hashable, Sendable, Codable {
    /// The page number, counted from the source's first page number.
    public let page: Int
    /// How many items the pages before this one sent.
    public let itemsBefore: Int

    /// Creates the key of page `page`, after `itemsBefore` items (to build requests in tests).
    ///
    /// - Parameters:
    ///   - page: The page number, counted from the source's first page number.
    ///   - itemsBefore: How many items the pages before it sent.
    @inlinable
    public init(page: Int, itemsBefore: Int) {
        self.page = page
        self.itemsBefore = itemsBefore
    }
}
