/// The delivery state machine of one signal: it accepts events, queues them behind a running delivery,
/// begins each delivery, names its recipients one at a time, and finishes it.
///
/// A pure value, kept by its ``SignalCore`` under the core's lock; each transition is one call made in
/// one critical section, and the core makes every callout between two of them, with no lock held. The
/// transitions, in the order a delivery goes through them:
/// 1. ``accept(_:for:list:domain:)`` numbers the event and either makes the caller the drainer or queues
///    the event for the running one (the ``DrainQueue``).
/// 2. ``begin(_:list:domain:)`` starts the walk over the observers.
/// 3. ``nextRecipient(of:list:held:)`` names the next observer to call, until there is none.
/// 4. ``finish(_:list:)`` terminates the signal after its terminal event; ``next(domain:)`` then gives the
///    drainer the next delivery, or makes the signal idle.
@usableFromInline
struct SignalMachine<Value: Sendable, Error: Swift.Error> {
    @usableFromInline typealias Event = Signal<Value, Error>.Event

    /// The deliveries accepted while another was running; whether one is running is
    /// `DeliveryState.isDraining`.
    @usableFromInline var queue = DrainQueue<Delivery>()
    /// The event the signal terminates with, from the moment it is accepted; `nil` while it has not, or
    /// after a teardown.
    @usableFromInline var terminalEvent: Event?

    @inlinable
    init() {}

    /// One event on its way: to every observer attached before it was accepted, or to one target.
    @usableFromInline
    struct Delivery: Sendable {
        @usableFromInline var event: Event
        @usableFromInline var sequence: UInt64
        @usableFromInline var target: ObserverEntry?
        /// Whether the target has been offered the event.
        @usableFromInline var isTargetServed = false

        @inlinable
        init(event: Event, sequence: UInt64, target: ObserverEntry?) {
            self.event = event
            self.sequence = sequence
            self.target = target
        }
    }

    /// What became of an event offered to ``accept(_:for:list:domain:)``.
    @usableFromInline
    enum Acceptance {
        /// The signal has terminated (or is delivering its terminal event): the event is dropped.
        case rejected
        /// A delivery is running: its drainer delivers this one after the events before it.
        case queued
        /// The caller is the drainer now: it delivers the event, numbered `sequence`, first, with no lock
        /// held.
        case deliver(sequence: UInt64)
    }

    /// Observers and events a critical section let go of, to be released after unlocking: releasing an
    /// event's value or an observer's handler can run a `deinit`, which is user code and may call back
    /// into this signal.
    @usableFromInline
    struct Retired {
        @usableFromInline let observers: ContiguousArray<ObserverEntry>
        @usableFromInline let deliveries: FIFOQueue<Delivery>

        @inlinable
        init(observers: ContiguousArray<ObserverEntry>, deliveries: FIFOQueue<Delivery>) {
            self.observers = observers
            self.deliveries = deliveries
        }
    }

    /// Accepts `event` for every observer, or for `target` only.
    ///
    /// It numbers the event and hands it to the queue. A terminal event moves the signal to
    /// `terminating`, so it accepts nothing more.
    @inlinable
    mutating func accept(
        _ event: Event, for target: ObserverEntry?, list: inout ObserverList, domain: inout DeliveryState
    ) -> Acceptance {
        guard list.isAlive else { return .rejected }
        domain.sequence &+= 1
        if target == nil && event.isTerminating {
            markTerminating(with: event, sequence: domain.sequence, list: &list)
        }
        let sequence = domain.sequence
        guard queue.offer(Delivery(event: event, sequence: sequence, target: target), isDraining: &domain.isDraining)
        else {
            return .queued
        }
        return .deliver(sequence: sequence)
    }

    /// Records that the signal terminates with `event`, numbered `sequence`.
    @inlinable
    mutating func markTerminating(with event: Event, sequence: UInt64, list: inout ObserverList) {
        list.phase = .terminating(sequence: sequence)
        terminalEvent = event
    }

    /// Starts delivering the event numbered `sequence`: the walk over the observers starts at the first one, and the signals
    /// derived from this one deliver to the observers they had when it was accepted.
    @inlinable
    func begin(_ sequence: UInt64, list: inout ObserverList, domain: inout DeliveryState) {
        domain.deliverySequence = sequence
        list.rewind()
    }

    /// The next observer to call with `delivery`'s event, its handler unretained; `nil` once every
    /// observer has been offered it.
    ///
    /// A targeted delivery goes to its target once, if it is still attached. A terminal event detaches
    /// each observer it reaches and moves its handler to `held`, for the drainer to release after the
    /// callout.
    @inlinable
    func nextRecipient(
        of delivery: inout Delivery, list: inout ObserverList, held: inout AnyObject?
    ) -> Unmanaged<AnyObject>? {
        if let target = delivery.target {
            guard !delivery.isTargetServed else { return nil }
            delivery.isTargetServed = true
            guard target.isActive, let handler = target.handler else { return nil }
            return Unmanaged.passUnretained(handler)
        }
        guard delivery.event.isTerminating else { return list.nextValueRecipient(sequence: delivery.sequence) }
        return list.nextTerminalRecipient(sequence: delivery.sequence, held: &held)
    }

    /// The drainer's next delivery, not yet begun; `nil` when none is left, which makes the signal idle.
    @inlinable
    mutating func next(domain: inout DeliveryState) -> Delivery? {
        queue.next(isDraining: &domain.isDraining)
    }

    /// Finishes `delivery`, whose last recipient has been called: after the terminal event, the signal
    /// terminates.
    ///
    /// - Returns: What the termination drops, for the caller to release after unlocking, and then to end
    ///   the signal's lifetime; `nil` if the signal goes on.
    @inlinable
    mutating func finish(_ delivery: Delivery, list: inout ObserverList) -> Retired? {
        guard delivery.target == nil, delivery.event.isTerminating, case .terminating = list.phase else {
            return nil
        }
        return terminate(with: delivery.event, list: &list)
    }

    /// Moves to `terminated` with `event`, dropping the observers and the queued deliveries.
    ///
    /// - Returns: What was dropped, for the caller to release after unlocking.
    @inlinable
    mutating func terminate(with event: Event, list: inout ObserverList) -> Retired {
        terminalEvent = event
        return Retired(observers: list.terminate(), deliveries: queue.removeAll())
    }
}
