/// The shared machinery of a signal: its observers, its delivery queue and its status.
///
/// Delivery is queue-and-drain. The first sender to find the signal idle becomes the drainer: it
/// delivers its event, then every event queued meanwhile, in FIFO order, and only then marks the
/// signal idle. Any other send (a reentrant one from an observer, or one from another thread) queues
/// its event and returns at once. No observer is ever called with the lock held.
///
/// Each event gets a sequence number when it is accepted, and each observer remembers the first
/// sequence number it may receive, so an observer sees exactly the events accepted after it attached.
/// Before each callout the drainer checks, under the lock, that the observer is still active: that is
/// what makes "nothing after `dispose()` returns" hold.
///
/// The cost of a value is two lock round trips and no reference counting: the lock that accepts an
/// event also finds its first recipient, and the one after each callout finds the next recipient or
/// marks the signal idle. The drainer walks the live observer list with a cursor kept under the lock
/// (a removal before the cursor moves it back), and calls each handler without retaining it: a handler
/// that is detached while a delivery runs is parked under the lock instead of being released, and the
/// drainer releases it after its next critical section, when no callout can still be using it.
@usableFromInline
final class SignalCore<Value: Sendable, Error: Swift.Error>: SignalCoreBase, @unchecked Sendable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Handler = Signal<Value, Error>.Observer

    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline var pending = FIFOQueue<Delivery>()
    /// The event the signal terminates with, from the moment it is accepted; `nil` while it has not, or
    /// after a teardown.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline var terminalEvent: Event?

    @inlinable
    override init(hasOutput: Bool = true, isRun: Bool = false) {
        super.init(hasOutput: hasOutput, isRun: isRun)
    }

    @inlinable
    override init(derivedFrom upstream: SignalCoreBase) {
        super.init(derivedFrom: upstream)
    }

    /// Call under the lock: moves to `terminated` with `event`, dropping observers and queued events.
    ///
    /// - Returns: What was dropped; the caller releases it after unlocking (see ``Retired``).
    @inlinable
    func terminate(with event: Event) -> Retired {
        phase = .terminated
        terminalEvent = event
        let retired = Retired(observers: observers, pending: pending)
        observers = []
        pending = FIFOQueue()
        return retired
    }

    /// `handler` as the signal's observer type, still unretained.
    @inlinable
    static func typed(_ handler: Unmanaged<AnyObject>) -> Unmanaged<Handler> {
        Unmanaged<Handler>.fromOpaque(handler.toOpaque())
    }

    /// Observers and events a critical section let go of, to be released after unlocking: releasing an
    /// event's value or an observer's handler can run a `deinit`, which is user code and may call back
    /// into this signal.
    @usableFromInline
    struct Retired {
        @usableFromInline let observers: ContiguousArray<ObserverEntry>
        @usableFromInline let pending: FIFOQueue<Delivery>

        @inlinable
        init(observers: ContiguousArray<ObserverEntry>, pending: FIFOQueue<Delivery>) {
            self.observers = observers
            self.pending = pending
        }
    }

    /// One event on its way: to every observer attached before it was accepted, or to one target.
    @usableFromInline
    struct Delivery: Sendable {
        @usableFromInline var event: Event
        @usableFromInline var sequence: UInt64
        @usableFromInline var target: ObserverEntry?

        @inlinable
        init(event: Event, sequence: UInt64, target: ObserverEntry?) {
            self.event = event
            self.sequence = sequence
            self.target = target
        }
    }

    // MARK: Sending

    /// Accepts `event` and delivers it, or queues it if a delivery is running.
    @inlinable
    func send(_ event: Event) {
        send { event }
    }

    /// Runs `makeEvent` under the signal's lock, then accepts and delivers the event it returns.
    ///
    /// A property stores its new value inside `makeEvent`, so the order of stored values and the
    /// order of change events always agree. `makeEvent` runs even if the signal has terminated; its
    /// event is then dropped.
    ///
    /// The critical section that accepts the event also finds its first recipient, so delivering a value
    /// to one observer takes two lock round trips: accept, then finish.
    ///
    /// - Returns: Whether the event was accepted (the signal had not terminated).
    @inlinable
    @discardableResult
    func send(whileLocked makeEvent: () throws -> Event?) rethrows -> Bool {
        var event: Event?
        var sequence: UInt64 = 0
        var recipient: Unmanaged<Handler>?
        let accepted = try domain.withLock { state -> Bool in
            guard let accepted = try makeEvent(), case .alive = phase else { return false }
            state.sequence &+= 1
            let isTerminating = accepted.isTerminating
            if isTerminating {
                phase = .terminating(sequence: state.sequence)
                terminalEvent = accepted
            }
            guard !state.isDelivering else {
                pending.append(Delivery(event: accepted, sequence: state.sequence, target: nil))
                return true
            }
            state.isDelivering = true
            sequence = state.sequence
            state.deliverySequence = sequence
            if !isTerminating {
                cursor = 0
                recipient = nextValueRecipient(sequence: sequence).map(Self.typed)
            }
            event = accepted
            return true
        }
        guard let event else { return accepted }
        guard !event.isTerminating else {
            drain(Delivery(event: event, sequence: sequence, target: nil), isStarted: false)
            return true
        }
        // The value path: each lock round trip after a callout finds the next recipient, or, once every
        // observer has the value and nothing is queued or parked, marks the signal idle.
        while let handler = recipient {
            handler._withUnsafeGuaranteedRef { $0.send(event) }
            let isIdle = domain.withLock { state -> Bool in
                recipient = nextValueRecipient(sequence: sequence).map(Self.typed)
                guard recipient == nil, pending.isEmpty, state.parked.isEmpty else { return false }
                state.isDelivering = false
                return true
            }
            if isIdle {
                return true
            }
        }
        // Every observer has the value, and events were queued or handlers parked meanwhile.
        drain(Delivery(event: event, sequence: sequence, target: nil), isStarted: true)
        return true
    }

    /// Accepts the event `makeEvent` returns without delivering it yet.
    ///
    /// If no delivery is running, the caller becomes the drainer and must call `PendingDrain.run()`
    /// on the returned drain, with no lock held; otherwise the event is queued for the running
    /// drainer and there is no drain to run. Staging several signals before running their drains lets
    /// a group of properties change together: an observer of any of them already reads every new value.
    ///
    /// - Returns: Whether an event was accepted, and the drain the caller must run, if any.
    @inlinable
    func stage(_ makeEvent: () throws -> Event?) rethrows -> (accepted: Bool, drain: PendingDrain?) {
        var drain: PendingDrain?
        let accepted = try domain.withLock { state -> Bool in
            guard let event = try makeEvent(), case .alive = phase else { return false }
            state.sequence &+= 1
            if event.isTerminating {
                phase = .terminating(sequence: state.sequence)
                terminalEvent = event
            }
            let delivery = Delivery(event: event, sequence: state.sequence, target: nil)
            guard !state.isDelivering else {
                pending.append(delivery)
                return true
            }
            state.isDelivering = true
            drain = PendingDrain(core: self, first: delivery)
            return true
        }
        return (accepted, drain)
    }

    /// A delivery that was staged and must now be run by the thread that staged it.
    @usableFromInline
    struct PendingDrain: Sendable {
        @usableFromInline let core: SignalCore
        @usableFromInline let first: Delivery

        @inlinable
        init(core: SignalCore, first: Delivery) {
            self.core = core
            self.first = first
        }

        /// Delivers the staged event and everything queued behind it.
        ///
        /// Call it with no lock held.
        @inlinable
        func run() {
            core.drain(first, isStarted: false)
        }
    }

    /// Delivers `first`, then every queued event, until the queue is empty.
    ///
    /// Only the thread that set `isDelivering` runs this, so deliveries never overlap. Each critical
    /// section replaces the current event at most once and hands the old one, like parked handlers and
    /// what a termination drops, to a local that is cleared after unlocking, so no value or handler is
    /// ever released under the lock.
    ///
    /// - Parameters:
    ///   - first: The delivery that made the caller the drainer.
    ///   - isStarted: Whether the cursor already walks the observers for `first` (the value path of
    ///     `send(whileLocked:)` hands over to the drain after its last callout); otherwise the walk
    ///     starts at the first observer.
    @inlinable
    func drain(_ first: __owned Delivery, isStarted: Bool) {
        // The current delivery, in locals: the value path then copies nothing but the event.
        var event = first.event
        var sequence = first.sequence
        var isTerminating = event.isTerminating
        var target = first.target
        var isServed = false
        var needsCursorReset = !isStarted
        var recipient: Unmanaged<AnyObject>?
        var held: AnyObject?
        var endsLifetime = false
        var parked: ContiguousArray<AnyObject> = []
        var retiredEvent: Event?
        var retiredTarget: ObserverEntry?
        var retiredState: Retired?
        #if DEBUG
            var delivered = 0
        #endif
        while true {
            if let handler = recipient {
                Self.typed(handler)._withUnsafeGuaranteedRef { $0.send(event) }
                recipient = nil
                held = nil
            }
            let isDone = domain.withLock { state -> Bool in
                if !state.parked.isEmpty {
                    swap(&parked, &state.parked)
                }
                if needsCursorReset {
                    needsCursorReset = false
                    cursor = 0
                    state.deliverySequence = sequence
                }
                if let entry = target {
                    if !isServed {
                        isServed = true
                        if entry.isActive, let handler = entry.handler {
                            recipient = Unmanaged.passUnretained(handler)
                            return false
                        }
                    }
                } else {
                    if let next = nextRecipient(sequence: sequence, isTerminating: isTerminating, held: &held) {
                        recipient = next
                        return false
                    }
                    if isTerminating, case .terminating = phase {
                        // Observers attached while the terminal event was being delivered come after the
                        // cursor, or in the place of served entries before it: look at the whole list again.
                        cursor = 0
                        if let next = nextRecipient(sequence: sequence, isTerminating: true, held: &held) {
                            recipient = next
                            return false
                        }
                        retiredState = terminate(with: event)
                        endsLifetime = true
                    }
                }
                guard let next = pending.popFirst() else {
                    state.isDelivering = false
                    return true
                }
                #if DEBUG
                    delivered &+= 1
                    if delivered > Self.feedbackLoopLimit {
                        Self.reportFeedbackLoop()
                    }
                #endif
                retiredEvent = event
                retiredTarget = target
                event = next.event
                sequence = next.sequence
                isTerminating = event.isTerminating
                target = next.target
                state.deliverySequence = sequence
                if target == nil {
                    cursor = 0
                    recipient = nextRecipient(sequence: sequence, isTerminating: isTerminating, held: &held)
                    isServed = true
                } else {
                    isServed = false
                }
                return false
            }
            // Released here, with the lock free. Reading them first keeps the optimiser from ending
            // their lifetimes at the last write, inside the critical section.
            if !parked.isEmpty {
                withExtendedLifetime(parked) {}
                parked = []
            }
            if retiredEvent != nil {
                withExtendedLifetime((retiredEvent, retiredTarget)) {}
                retiredEvent = nil
                retiredTarget = nil
            }
            if isDone {
                break
            }
        }
        withExtendedLifetime(retiredState) {}
        if endsLifetime {
            endLifetime()
        }
    }

    // MARK: Observing

    /// Attaches `observer`; see `Signal.observe(_:)-(Observer)`.
    ///
    /// - Parameters:
    ///   - observer: Receives the events.
    ///   - initialEvent: Runs under the lock; the event it returns is delivered to this observer
    ///     only, before any event accepted later (a property's current value). On a terminated
    ///     signal it is delivered before the terminal event.
    /// - Returns: The disposable that detaches the observer.
    @inlinable
    func observe(_ observer: Handler, initialEvent: () -> Event? = { nil }) -> any Disposable {
        attach(observer, initialEvent: initialEvent)
    }

    /// Attaches `observer` as `observe(_:initialEvent:)` does, and returns its entry.
    @inlinable
    func attach(_ observer: Handler, initialEvent: () -> Event? = { nil }) -> ObserverEntry {
        var late: Event?
        var lateInitial: Event?
        var first: Delivery?
        let entry = ObserverEntry(handler: observer, core: self)
        domain.withLock { state in
            switch phase {
            case .terminated:
                entry.isActive = false
                entry.handler = nil
                // A property whose change signal has ended still has a current value to send first.
                lateInitial = initialEvent()
                late = terminalEvent ?? .interrupted
            case .terminating(let sequence):
                if let initial = initialEvent(), let terminalEvent {
                    // The current value must come first, and the drainer may be delivering the terminal
                    // event already: this observer gets both here, in order, and is never listed.
                    entry.isActive = false
                    entry.handler = nil
                    lateInitial = initial
                    late = terminalEvent
                } else {
                    entry.firstSequence = sequence
                    observers.append(entry)
                }
            case .alive:
                entry.firstSequence = state.sequence &+ 1
                observers.append(entry)
                if let event = initialEvent() {
                    state.sequence &+= 1
                    let delivery = Delivery(event: event, sequence: state.sequence, target: entry)
                    if state.isDelivering {
                        pending.append(delivery)
                    } else {
                        state.isDelivering = true
                        first = delivery
                    }
                }
            }
        }
        if let late {
            if let lateInitial { observer.send(lateInitial) }
            observer.send(late)
        } else if let first {
            drain(first, isStarted: false)
        }
        return entry
    }
}
