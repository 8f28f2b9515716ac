// Names for the paginators of the built-in page models, so a stored paginator spells its response, its
// query and its error, and the key comes from the model:
//
//     let messages: CursorPaginator<MessagePage, Void, APIError>
//     // rather than Paginator<Message, String?, Void, MessagePage, APIError>

/// A paginator of the offset + total model (`PageSource.offset(load:)`): the key is an offset.
public typealias OffsetPaginator<Response: PaginatedResponse, Query: Sendable, Failure: Error> =
    Paginator<Response.Item, Int, Query, Response, Failure>

/// A paginator of the page-number model (`PageSource.pageNumber(firstPage:load:)`).
public typealias PageNumberPaginator<Response: NumberedPageResponse, Query: Sendable, Failure: Error> =
    Paginator<Response.Item, PageNumberKey, Query, Response, Failure>

/// A paginator of the cursor model (`PageSource.cursor(load:)`): the key is the cursor, `nil` for the
/// first page.
public typealias CursorPaginator<Response: CursorPageResponse, Query: Sendable, Failure: Error> =
    Paginator<Response.Item, Response.Cursor?, Query, Response, Failure>

/// A paginator of the exhausted-flag model (`PageSource.exhaustible(load:)`): the key is a page counter.
public typealias ExhaustiblePaginator<Response: ExhaustiblePageResponse, Query: Sendable, Failure: Error> =
    Paginator<Response.Item, Int, Query, Response, Failure>

/// A paginator of a list loaded at once (`PageSource.singleLoad(load:)`).
public typealias SingleLoadPaginator<Item: Sendable, Query: Sendable, Failure: Error> =
    Paginator<Item, Int, Query, Void, Failure>
