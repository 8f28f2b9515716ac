import Reactive

/// Offset + total pagination with a ready-to-bind reactive data source.
///
/// `Stapler` keeps the interface of the original Stapler (an offset `request` closure, `items`,
/// `pages`, `total`, `shouldShowNextPageActivityIndicator`, `errorsAfterFirstPage`, the initial-load
/// and refresh actions, and `loadNextPageIfNeeded()`) on top of the ``Paginator`` engine, so it also
/// gets the engine's guarantees: a refresh disposes a next-page load in flight and its late response is
/// never appended; the next offset counts what the server sent; an empty page or a reached total ends
/// the list; bad responses become errors instead of traps; and every property is read-only outside.
///
/// ```swift
/// final class ViewModel {
///     let stapler = Stapler(pageSize: 20) { offset, size in
///         api.items(offset: offset, size: size)  // SignalProducer<ItemsResponse, APIError>
///     }
/// }
/// viewModel.stapler.initialLoadAction.apply().start()
/// // when the last row appears:
/// viewModel.stapler.loadNextPageIfNeeded()
/// ```
///
/// The module and this class share the name `Stapler`, so in code that imports the module, `Stapler.X`
/// looks for `X` inside this class: `Stapler.Paginator` does not compile ("'Paginator' is not a member
/// type of generic class 'Stapler.Stapler'"), nor does `Stapler.PagingState`. Write the module's types
/// unqualified: `Paginator`, `PagingState`. When another imported module also declares a `Paginator`,
/// the plain name is ambiguous; then either qualify it with a module selector (Swift 6.3 and later), or
/// import the type by kind, which makes the plain name mean this module's type in that file:
///
/// ```swift
/// typealias MessagesPaginator = Stapler::Paginator<Message, String?, Void, MessagesPage, APIError>
///
/// import class Stapler.Paginator  // at the top of a file: `Paginator` is this module's there
/// ```
public final class Stapler<Response: PaginatedResponse, ResponseError: Error>: Sendable {
    /// The item type of the responses.
    public typealias Item = Response.Item

    /// The engine under the facade, for what the original interface lacks: explicit ``Paginator/state``,
    /// ``Paginator/updates``, ``Paginator/preload(index:)``, ``Paginator/retry()-1n6nq`` and
    /// ``Paginator/cancel()``.
    public let paginator: Paginator<Item, Int, Void, Response, ResponseError>

    /// Loads the first page; use it for the first load of a screen, so it can show its own indicator.
    ///
    /// It shares one first-page slot with ``refreshAction``: starting either while the other runs
    /// supersedes the other (whose run is then interrupted), and only one first-page response is ever
    /// applied. Its run completes when the first page is applied and fails with the first page's error.
    /// Disposing a run before the page arrives cancels the load.
    public let initialLoadAction: Action<Void, Void, PagingError<ResponseError>>

    /// Reloads the content: loads the first page again, disposing any load in flight.
    ///
    /// The items stay until the new first page replaces them. See ``initialLoadAction`` for the shared
    /// slot.
    public let refreshAction: Action<Void, Void, PagingError<ResponseError>>

    /// The loaded items, a random-access snapshot collection; initially empty.
    @inlinable
    public var items: Property<PagedItems<Item>> { paginator.items }

    /// The number of pages loaded; initially 0.
    ///
    /// A first page sets it to 1.
    @inlinable
    public var pages: Property<Int> { paginator.pages }

    /// The total number of items on the server, as the latest response reported it; initially 0.
    @inlinable
    public var total: Property<Int> {
        paginator.totalOrZero
    }

    /// Whether to show an activity indicator for pages after the first: `false` until the second page
    /// starts loading, then `true` until no pages are left; `false` while a later page's error waits for
    /// a retry (show a retry footer then) and during a refresh.
    @inlinable
    public var shouldShowNextPageActivityIndicator: Property<Bool> { paginator.showsNextPageIndicator }

    /// The errors of the second and later pages.
    ///
    /// First-page errors reach the errors of ``initialLoadAction`` or ``refreshAction``, whichever started
    /// the load.
    @inlinable
    public var errorsAfterFirstPage: Signal<PagingError<ResponseError>, Never> { paginator.errorsAfterFirstPage }

    /// Creates a paginator over an offset + total backend.
    ///
    /// - Parameters:
    ///   - pageSize: Number of items per page; at least 1 (a programmer error traps, naming `pageSize`).
    ///   - prefetchDistance: How many rows before the last one ``Paginator/preload(index:)`` starts the next
    ///     page; 0 (the default) loads at the last row, as the original library did.
    ///   - deduplication: When given, an item already loaded is dropped from later pages; see
    ///     ``Deduplication``.
    ///   - scheduler: When given, every property changes and every signal and action notifies on it
    ///     (for example `QueueScheduler.main`); see ``PagingOptions/deliveryScheduler``.
    ///   - request: Loads `size` items starting at `offset`. Its first value is applied and the request is
    ///     then disposed; completing without a value is a ``PagingError/noPage`` error.
    @inlinable
    public init(
        pageSize: Int,
        prefetchDistance: Int = 0,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        request: @escaping @Sendable (_ offset: Int, _ size: Int) -> SignalProducer<Response, ResponseError>
    ) {
        let source = PageSource<Item, Int, Void, Response, ResponseError>.offset { offset, size, _ in
            request(offset, size)
        }
        let paginator = Paginator(
            source: source,
            options: PagingOptions(
                pageSize: pageSize, prefetchDistance: prefetchDistance, deduplication: deduplication,
                deliveringOn: scheduler))
        self.paginator = paginator
        initialLoadAction = Self.firstPageAction(paginator.firstPageLoads)
        refreshAction = Self.firstPageAction(paginator.firstPageLoads)
    }

    /// Creates a paginator over an offset + total backend reached with `async` calls.
    ///
    /// - Parameters:
    ///   - pageSize: Number of items per page; at least 1.
    ///   - prefetchDistance: How many rows before the last one the next page starts; 0 by default.
    ///   - deduplication: When given, an item already loaded is dropped from later pages.
    ///   - scheduler: When given, every notification is delivered on it.
    ///   - request: Loads `size` items starting at `offset`. Its task is cancelled when the load is
    ///     superseded or the paginator is released.
    @inlinable
    public convenience init(
        pageSize: Int,
        prefetchDistance: Int = 0,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        request: @escaping @Sendable (_ offset: Int, _ size: Int) async throws(ResponseError) -> Response
    ) {
        self.init(
            pageSize: pageSize, prefetchDistance: prefetchDistance, deduplication: deduplication,
            deliveringOn: scheduler
        ) { offset, size in
            SignalProducer { () async throws(ResponseError) in try await request(offset, size) }
        }
    }

    /// Loads the next page if needed: call it when the last rows become visible.
    ///
    /// Calls while a page is loading, before the first page, or after the last page do nothing, so it is
    /// safe to call many times. After a later page's error it requests that same page again.
    ///
    /// - Complexity: O(1) when it does nothing.
    @inlinable
    public func loadNextPageIfNeeded() {
        paginator.loadNextOrRetryingFailedPage()
    }

    /// An action whose runs start a new generation and end with its first page.
    @inlinable
    static func firstPageAction(
        _ loads: FirstPageLoads<Item, Int, Void, Response, ResponseError>
    ) -> Action<Void, Void, PagingError<ResponseError>> {
        // The action holds the loads (the engine under the paginator) strongly: they hold nothing of the
        // action, an action may outlive the facade and its paginator, and releasing the action
        // interrupts its runs, which cancels their loads.
        Action {
            SignalProducer { observer, lifetime in
                let generation = loads.refresh { outcome in
                    switch outcome {
                    case .loaded:
                        observer.send(value: ())
                        observer.sendCompleted()
                    case .failed(let error):
                        observer.send(error: error)
                    case .superseded, .cancelled:
                        observer.sendInterrupted()
                    }
                }
                lifetime.observeEnded {
                    loads.cancel(generation)
                }
            }
        }
    }
}
