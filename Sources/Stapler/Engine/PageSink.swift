import Reactive

/// Where a page source delivers the events of one load: the engine that started it, and the load's ticket.
///
/// A value the source's observer captures directly, so a load costs one observer and one closure
/// context. The engine is held weakly: a load in flight does not keep a released paginator alive.
@usableFromInline
struct PageSink<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Sendable
{
    @usableFromInline weak var engine: PagingEngine<Item, Key, Query, Metadata, Failure>?
    @usableFromInline let ticket: UInt64

    @inlinable
    init(engine: PagingEngine<Item, Key, Query, Metadata, Failure>, ticket: UInt64) {
        self.engine = engine
        self.ticket = ticket
    }

    /// Hands an event of the load to the engine, if it still exists.
    @inlinable
    func send(_ event: Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event) {
        engine?.receive(event, from: ticket)
    }
}
