import Reactive

/// Where pages come from: the first key, and how to load the page of a key.
///
/// Build one with a page model (`offset(load:)`, `pageNumber(firstPage:load:)`,
/// `cursor(load:)`, `exhaustible(load:)`, `singleLoad(load:)`) or directly from a closure that
/// answers a ``PageRequest`` with a ``Page``.
///
/// The load closure is called on the thread that asked for the page, with no lock held; its producer
/// may answer on any thread. The paginator applies the first value the producer sends and then disposes
/// it; a producer that completes without a value is a ``PagingError/noPage`` error.
public struct PageSource<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Sendable
{
    /// Where the events of one page load go.
    @usableFromInline typealias Sink = PageSink<Item, Key, Metadata, Failure>

    /// The key of the first page.
    public let firstKey: Key
    /// Starts the load of a request, delivering its events to the sink; the disposable interrupts it.
    ///
    /// A source starts the user's producer directly, with one observer that maps its events into the
    /// sink, instead of lifting it through operators: a page costs one producer start and one observer.
    @usableFromInline let start: @Sendable (PageRequest<Key, Query>, _ sink: Sink) -> any Disposable
    /// Whether the model asks for no page size (a single load): a paginator over it needs none.
    ///
    /// Package-visible so that the test kit's conformance check lets such a page hold the whole list.
    @usableFromInline package internal(set) var ignoresPageSize = false
    /// The page model this source was made with (a saved list restores onto the same model only).
    @usableFromInline var model = PageModelKind.custom
    /// The key of the page that holds position `slot` of the whole list, for pages of `pageSize`, when
    /// the model can compute one (offsets and page numbers; a cursor cannot): what a jump loads.
    ///
    /// Package-visible so that the test kit's conformance check opens a list at a position with it.
    @usableFromInline package internal(set) var slotKey: (@Sendable (_ slot: Int, _ pageSize: Int) -> Key)?

    @inlinable
    init(firstKey: Key, start: @escaping @Sendable (PageRequest<Key, Query>, _ sink: Sink) -> any Disposable) {
        self.firstKey = firstKey
        self.start = start
    }

    /// Creates a source from its first key and a load closure that fails with the source's own error.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - loadPage: Answers a request with one page.
    @inlinable
    public init(
        firstKey: Key,
        loadPage: @escaping @Sendable (PageRequest<Key, Query>) -> SignalProducer<Page<Item, Key, Metadata>, Failure>
    ) {
        self.init(firstKey: firstKey, load: loadPage) { page, _ in page }
    }

    /// Creates a source from a load of responses and a page model: `page`, a pure function, makes the
    /// page of each response for the request it answers.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - load: Requests the response of a request.
    ///   - page: Makes the page of a response: its items, its keys, its total and metadata.
    @inlinable
    init<Response>(
        firstKey: Key,
        load: @escaping @Sendable (PageRequest<Key, Query>) -> SignalProducer<Response, Failure>,
        page: @escaping @Sendable (Response, PageRequest<Key, Query>) -> Page<Item, Key, Metadata>
    ) {
        self.init(firstKey: firstKey) { request, sink in
            load(request).start { event in sink.send(event.paging { page($0, request) }) }
        }
    }
}

extension PageSource {
    /// Starts the load of `request` outside a paginator, through the same code a paginator runs (the
    /// page model's request, its page of each response), handing every event of the load to `receive`;
    /// the disposable interrupts it.
    ///
    /// It is the test kit's way in: its conformance check walks an app's own source with it. A failure of
    /// the source arrives as ``PagingError/source(_:)``, like in a paginator; nothing checks the page (a
    /// repeated key, a negative total), which is the engine's work.
    ///
    /// - Parameters:
    ///   - request: The request to load.
    ///   - receive: Takes each event of the load, on whatever thread the source sends it.
    /// - Returns: The disposable of the load.
    package func load(
        _ request: PageRequest<Key, Query>,
        _ receive: @escaping @Sendable (Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event) -> Void
    ) -> any Disposable {
        start(request, Sink(receiver: { event, _ in receive(event) }, ticket: 0))
    }

    /// This source, marked as made with the page model `kind`, which computes the key of a position
    /// with `slotKey` if it can.
    @inlinable
    func modeled(
        _ kind: PageModelKind, slotKey: (@Sendable (_ slot: Int, _ pageSize: Int) -> Key)? = nil
    ) -> PageSource {
        var source = self
        source.model = kind
        source.slotKey = slotKey
        return source
    }
}

/// The page models a source can be made with.
@usableFromInline
enum PageModelKind: String, Sendable, Hashable {
    case offset, pageNumber, cursor, exhaustible, singleLoad, custom
}

extension Signal.Event {
    /// This event as a page load's event: its value made a page by `makePage`, its error wrapped as
    /// ``PagingError/source(_:)``.
    @inlinable
    func paging<Item, Key, Metadata>(
        _ makePage: (Value) -> Page<Item, Key, Metadata>
    ) -> Signal<Page<Item, Key, Metadata>, PagingError<Error>>.Event {
        switch self {
        case .value(let value): .value(makePage(value))
        case .failed(let error): .failed(.source(error))
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
