/// A server response of offset + total paging: one page of items and the total count.
///
/// Conform your response type to use it with ``Stapler`` or `PageSource.offset(load:)`:
///
/// ```swift
/// struct UsersResponse: PaginatedResponse {
///     let items: [User]
///     let total: Int
/// }
/// ```
public protocol PaginatedResponse: Sendable {
    /// The type of the listed items.
    associatedtype Item: Sendable
    /// The items of this page, in order.
    var items: [Item] { get }
    /// The total number of items on the server. A negative total is rejected as
    /// ``PagingError/invalidTotal(_:)``.
    var total: Int { get }
}
