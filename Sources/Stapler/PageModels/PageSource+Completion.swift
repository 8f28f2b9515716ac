import Reactive

// Page sources over services that answer through a completion handler, such as
// `func loadPage(_ page: Int, completion: @escaping (Result<Response, Error>) -> Void)`.
//
// Every factory here has the same rules for the completion it hands to the service: it may be called on
// any thread, and only its first call counts: a second call is ignored, and so is a call after the load
// was superseded (a refresh, a query change, `cancel()`, or the paginator's release). The service's work
// is not cancelled then, since a completion-handler API has no way to be told; its result is dropped.
// A service that never calls the completion leaves its load running until a refresh supersedes it.

extension PageSource {
    /// Creates a source from its first key and a load that answers through a completion handler.
    ///
    /// `loadPage` is called on the thread that asked for the page, with no lock held. It calls its
    /// completion once, on any thread, with the page or the failure. A second call of that completion is
    /// ignored, and a call after the load was superseded is dropped (the service's own work is not
    /// cancelled: nothing can tell it to stop).
    ///
    /// ```swift
    /// PageSource<Message, String?, Void, Void, APIError>(firstKey: nil) { request, completion in
    ///     api.messages(after: request.key, limit: request.pageSize) { result in
    ///         completion(result.map { Page(items: $0.messages, nextKey: $0.next) })
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - loadPage: Starts the load of a request and calls `completion` with its page or its failure.
    @inlinable
    public init(
        firstKey: Key,
        loadPage:
            @escaping @Sendable (
                PageRequest<Key, Query>,
                _ completion: @escaping @Sendable (Result<Page<Item, Key, Metadata>, Failure>) -> Void
            ) -> Void
    ) {
        self.init(firstKey: firstKey) { (request: PageRequest<Key, Query>) in
            SignalProducer<Page<Item, Key, Metadata>, Failure>.fromCompletion { loadPage(request, $0) }
        }
    }
}

extension PageSource where Key == Int {
    /// Offset + total paging over a completion-handler backend; see `offset(load:)`.
    ///
    /// The completion may be called on any thread; only its first call counts, and a call after the
    /// load was superseded is dropped.
    ///
    /// ```swift
    /// .offset { offset, size, _, completion in api.users(offset: offset, limit: size, completion: completion) }
    /// ```
    ///
    /// - Parameter load: Requests `size` items from `offset` for `query`, then calls `completion` with the
    ///   response or the failure.
    /// - Returns: The page source.
    @inlinable
    public static func offset(
        completion load:
            @escaping @Sendable (
                _ offset: Int, _ size: Int, _ query: Query,
                _ completion: @escaping @Sendable (Result<Metadata, Failure>) -> Void
            ) -> Void
    ) -> PageSource where Metadata: PaginatedResponse, Metadata.Item == Item {
        offset { offset, size, query in
            SignalProducer<Metadata, Failure>.fromCompletion { load(offset, size, query, $0) }
        }
    }

    /// Exhaustible paging over a completion-handler backend; see `exhaustible(load:)`.
    ///
    /// The completion may be called on any thread; only its first call counts, and a call after the
    /// load was superseded is dropped.
    ///
    /// - Parameter load: Requests page `index` of `size` items for `query`, then calls `completion` with
    ///   the response or the failure.
    /// - Returns: The page source.
    @inlinable
    public static func exhaustible(
        completion load:
            @escaping @Sendable (
                _ index: Int, _ size: Int, _ query: Query,
                _ completion: @escaping @Sendable (Result<Metadata, Failure>) -> Void
            ) -> Void
    ) -> PageSource where Metadata: ExhaustiblePageResponse, Metadata.Item == Item {
        exhaustible { index, size, query in
            SignalProducer<Metadata, Failure>.fromCompletion { load(index, size, query, $0) }
        }
    }

    /// A single load of every item over a completion-handler backend; see `singleLoad(load:)`.
    ///
    /// The completion may be called on any thread; only its first call counts, and a call after the
    /// load was superseded is dropped.
    ///
    /// - Parameter load: Loads every item for `query`, then calls `completion` with them or the failure.
    /// - Returns: The page source.
    @inlinable
    public static func singleLoad(
        completion load:
            @escaping @Sendable (_ query: Query, _ completion: @escaping @Sendable (Result<[Item], Failure>) -> Void)
            -> Void
    ) -> PageSource where Metadata == Void {
        singleLoad { query in
            SignalProducer<[Item], Failure>.fromCompletion { load(query, $0) }
        }
    }
}

extension PageSource where Key == PageNumberKey {
    /// Page-number paging over a completion-handler backend; see `pageNumber(firstPage:load:)`.
    ///
    /// The completion may be called on any thread; only its first call counts, and a call after the
    /// load was superseded is dropped.
    ///
    /// ```swift
    /// .pageNumber(firstPage: 1) { page, _, _, completion in service.loadPage(page, completion: completion) }
    /// ```
    ///
    /// - Parameters:
    ///   - firstPage: The number of the first page.
    ///   - load: Requests page `page` of `size` items for `query`, then calls `completion` with the
    ///     response or the failure.
    /// - Returns: The page source.
    @inlinable
    public static func pageNumber(
        firstPage: Int = 1,
        completion load:
            @escaping @Sendable (
                _ page: Int, _ size: Int, _ query: Query,
                _ completion: @escaping @Sendable (Result<Metadata, Failure>) -> Void
            ) -> Void
    ) -> PageSource where Metadata: NumberedPageResponse, Metadata.Item == Item {
        pageNumber(firstPage: firstPage) { page, size, query in
            SignalProducer<Metadata, Failure>.fromCompletion { load(page, size, query, $0) }
        }
    }
}

extension PageSource {
    /// Cursor paging over a completion-handler backend; see `cursor(load:)`.
    ///
    /// The completion may be called on any thread; only its first call counts, and a call after the
    /// load was superseded is dropped.
    ///
    /// - Parameter load: Requests `size` items after `cursor` (`nil` for the first page) for `query`, then
    ///   calls `completion` with the response or the failure.
    /// - Returns: The page source.
    @inlinable
    public static func cursor(
        completion load:
            @escaping @Sendable (
                _ cursor: Metadata.Cursor?, _ size: Int, _ query: Query,
                _ completion: @escaping @Sendable (Result<Metadata, Failure>) -> Void
            ) -> Void
    ) -> PageSource where Metadata: CursorPageResponse, Key == Metadata.Cursor?, Metadata.Item == Item {
        cursor { cursor, size, query in
            SignalProducer<Metadata, Failure>.fromCompletion { load(cursor, size, query, $0) }
        }
    }
}

extension SignalProducer {
    /// A producer whose every run calls `call` with a completion handler and sends the first result
    /// that handler receives: a success as a value then completion, a failure as a failure.
    ///
    /// The handler may be called on any thread. Only its first call counts; later calls are ignored, and
    /// so is a call after the run ended (it was disposed). The run lets go of its observer at its first
    /// result or when it ends, so a service that keeps the handler keeps nothing of the run alive.
    ///
    /// - Parameter call: Starts the work, given the handler to call with its result.
    /// - Returns: The producer.
    @usableFromInline
    static func fromCompletion(
        _ call: @escaping @Sendable (_ completion: @escaping @Sendable (Result<Value, Error>) -> Void) -> Void
    ) -> SignalProducer {
        SignalProducer { observer, lifetime in
            // The run's observer until the first result or the end of the run; `nil` after either.
            let pending = LockedState<Signal<Value, Error>.Observer?>(observer)
            lifetime += { pending.withLock { $0 = nil } }
            call { result in
                guard let observer = pending.withLock({ $0.take() }) else { return }
                switch result {
                case .success(let value):
                    observer.send(value: value)
                    observer.sendCompleted()
                case .failure(let error):
                    observer.send(error: error)
                }
            }
        }
    }
}
