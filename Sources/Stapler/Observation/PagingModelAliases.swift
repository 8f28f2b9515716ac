#if canImport(Observation)
    // Names for the models of the built-in page models' paginators, as `PaginatorAliases.swift` names the
    // paginators: a stored model spells its response, its query and its error, and the key comes from the
    // page model:
    //
    //     @State var model: CursorPagingModel<MessagePage, Void, APIError>
    //     // rather than PagingModel<Message, String?, Void, MessagePage, APIError>

    /// The model of an ``OffsetPaginator`` (`PageSource.offset(load:)`): the key is an offset.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public typealias OffsetPagingModel<Response: PaginatedResponse, Query: Sendable, Failure: Error> =
        PagingModel<Response.Item, Int, Query, Response, Failure>

    /// The model of a ``PageNumberPaginator`` (`PageSource.pageNumber(firstPage:load:)`).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public typealias PageNumberPagingModel<Response: NumberedPageResponse, Query: Sendable, Failure: Error> =
        PagingModel<Response.Item, PageNumberKey, Query, Response, Failure>

    /// The model of a ``CursorPaginator`` (`PageSource.cursor(load:)`): the key is the cursor, `nil` for
    /// the first page.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public typealias CursorPagingModel<Response: CursorPageResponse, Query: Sendable, Failure: Error> =
        PagingModel<Response.Item, Response.Cursor?, Query, Response, Failure>

    /// The model of an ``ExhaustiblePaginator`` (`PageSource.exhaustible(load:)`): the key is a page
    /// counter.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public typealias ExhaustiblePagingModel<Response: ExhaustiblePageResponse, Query: Sendable, Failure: Error> =
        PagingModel<Response.Item, Int, Query, Response, Failure>

    /// The model of a ``SingleLoadPaginator`` (`PageSource.singleLoad(load:)`): a list loaded at once.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public typealias SingleLoadPagingModel<Item: Sendable, Query: Sendable, Failure: Error> =
        PagingModel<Item, Int, Query, Void, Failure>
#endif
