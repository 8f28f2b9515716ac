import Reactive

/// What receives the events of the loads a page source starts: the paging engine, seen from the page
/// models' layer, which knows nothing else of it.
@usableFromInline
protocol PageReceiver<Item, Key, Metadata, Failure>: AnyObject, Sendable {
    associatedtype Item: Sendable
    associatedtype Key: Sendable
    associatedtype Metadata: Sendable
    associatedtype Failure: Error

    /// Takes an event of the load with `ticket`.
    func receive(_ event: Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event, from ticket: UInt64)
}

/// Where a page source delivers the events of one load: the receiver that started it, and the load's
/// ticket.
///
/// A value the source's observer captures directly, so a load costs one observer and one closure
/// context. The receiver is held weakly: a load in flight does not keep a released paginator alive.
@usableFromInline
struct PageSink<Item: Sendable, Key: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    @usableFromInline weak var receiver: (any PageReceiver<Item, Key, Metadata, Failure>)?
    @usableFromInline let ticket: UInt64

    @inlinable
    init(receiver: any PageReceiver<Item, Key, Metadata, Failure>, ticket: UInt64) {
        self.receiver = receiver
        self.ticket = ticket
    }

    /// Hands an event of the load to the receiver, if it still exists.
    @inlinable
    func send(_ event: Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event) {
        receiver?.receive(event, from: ticket)
    }
}
