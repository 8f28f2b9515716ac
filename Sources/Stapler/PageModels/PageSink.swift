import Reactive

/// Where a page source delivers the events of one load: the receiver of every load of one paginator, and
/// the load's ticket.
///
/// The page models' layer knows nothing else of the paging engine. The receiver is a closure the engine
/// makes once, in code specialised for its item, key and error types, so an event goes from the source to
/// the engine's state machine without a witness table or generic metadata on the way (a protocol
/// existential would reach the engine's unspecialised entry points). It holds the engine weakly: a load
/// in flight does not keep a released paginator alive. A value the source's observer captures directly,
/// so a load costs one observer and one closure context.
@usableFromInline
struct PageSink<Item: Sendable, Key: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    /// An event of a load, as the engine takes it.
    @usableFromInline typealias Event = Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event
    /// Takes an event of the load with the given ticket; does nothing once the paginator is released.
    @usableFromInline typealias Receiver = @Sendable (_ event: consuming Event, _ ticket: UInt64) -> Void

    @usableFromInline let receiver: Receiver
    @usableFromInline let ticket: UInt64

    @inlinable
    init(receiver: @escaping Receiver, ticket: UInt64) {
        self.receiver = receiver
        self.ticket = ticket
    }

    /// Hands an event of the load to the receiver.
    ///
    /// The event is consumed on its way to the engine: a page the caller passes as its last use is moved,
    /// not copied.
    @inlinable
    func send(_ event: consuming Event) {
        receiver(event, ticket)
    }
}
