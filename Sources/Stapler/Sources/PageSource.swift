import Reactive

/// Where pages come from: the first key, and how to load the page of a key.
///
/// Build one with a page model (`offset(pageSize:load:)`, `pageNumber(firstPage:load:)`,
/// `cursor(load:)`, `exhaustible(load:)`, `singleLoad(load:)`) or directly from a closure that
/// answers a ``PageRequest`` with a ``Page``.
///
/// The load closure is called on the thread that asked for the page, with no lock held; its producer
/// may answer on any thread. The paginator applies the first value the producer sends and then disposes
/// it; a producer that completes without a value is a ``PagingError/noPage`` error.
public struct PageSource<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Sendable
{
    /// The key of the first page.
    public let firstKey: Key
    @usableFromInline let load:
        @Sendable (PageRequest<Key, Query>) -> SignalProducer<Page<Item, Key, Metadata>, PagingError<Failure>>

    /// Creates a source from its first key and a load closure whose errors are already paging errors.
    ///
    /// - Parameters:
    ///   - firstKey: The key of the first page.
    ///   - load: Answers a request with one page.
    @inlinable
    public init(
        firstKey: Key,
        load:
            @escaping @Sendable (PageRequest<Key, Query>) -> SignalProducer<
                Page<Item, Key, Metadata>, PagingError<Failure>
            >
    ) {
        self.firstKey = firstKey
        self.load = load
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
        self.init(firstKey: firstKey) { request in
            loadPage(request).mapPagingError()
        }
    }
}

extension SignalProducer {
    /// This producer with its errors wrapped as ``PagingError/source(_:)``.
    @inlinable
    func mapPagingError() -> SignalProducer<Value, PagingError<Error>> {
        lift { signal in
            Signal<Value, PagingError<Error>> { output, lifetime in
                lifetime += signal.observe { event in output.send(event.mapError(PagingError.source)) }
            }
        }
    }
}
