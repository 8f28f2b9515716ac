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
///
/// A paginator's sink hands on only the first event of its load (see ``FirstEvent``): whatever the load
/// sends after it (its completion after its page, the interruption the paginator's own disposal of the
/// answered load sends) could change nothing, and is dropped here, with no lock, instead of costing the
/// engine a transition.
@usableFromInline
struct PageSink<Item: Sendable, Key: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    /// An event of a load, as the engine takes it.
    @usableFromInline typealias Event = Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event
    /// Takes an event of the load with the given ticket; does nothing once the paginator is released.
    @usableFromInline typealias Receiver = @Sendable (_ event: consuming Event, _ ticket: UInt64) -> Void

    @usableFromInline let receiver: Receiver
    @usableFromInline let ticket: UInt64
    /// Marks the first event of the load, when only that one goes to the receiver (a paginator's load);
    /// `nil` hands on every event.
    @usableFromInline let firstEvent: FirstEvent?

    @inlinable
    init(receiver: @escaping Receiver, ticket: UInt64, firstEvent: FirstEvent? = nil) {
        self.receiver = receiver
        self.ticket = ticket
        self.firstEvent = firstEvent
    }

    /// Hands an event of the load to the receiver, unless it follows the first one of a paginator's load.
    ///
    /// The event is consumed on its way to the engine: a page the caller passes as its last use is moved,
    /// not copied.
    @inlinable
    func send(_ event: consuming Event) {
        if let firstEvent, !firstEvent.take() { return }
        receiver(event, ticket)
    }
}

/// Whether a load has sent an event yet: the engine takes only a load's first event.
///
/// A load's first event decides it: a page commits, a failure or a completion with no page fails it, an
/// interruption cancels it (or, when the load was superseded, the engine ignores it). Every later event
/// finds the load ended and could change nothing, so the sink drops it. It is marked before the first
/// event goes on, so the interruption that the engine's disposal of the answered load sends from inside
/// that event's delivery is dropped too.
@usableFromInline
final class FirstEvent: Sendable {
    // Written once, by the load's first event; a run's events never overlap (the reactive contract's
    // serialized delivery), so a load and a store suffice.
    @usableFromInline let sent = AtomicWord()

    @inlinable
    init() {}

    /// Whether this is the load's first event; marks it sent.
    @inlinable
    func take() -> Bool {
        guard sent.load() == 0 else { return false }
        sent.store(1)
        return true
    }
}
