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
@usableFromInline
final class SignalCore<Value: Sendable, Error: Swift.Error>: @unchecked Sendable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Entry = ObserverEntry<Value, Error>

    // Guarded by `state`'s lock: every field of `State`, and `isActive` of every entry.
    @usableFromInline let state: LockedState<State>

    /// Ends when the signal terminates or tears down; the signal's resources hang from it.
    @usableFromInline let lifetime: Lifetime

    @inlinable
    init(hasOutput: Bool = true) {
        state = LockedState(State(hasOutput: hasOutput))
        lifetime = Lifetime(ender: CompositeDisposable())
    }

    @usableFromInline
    struct State {
        @usableFromInline var observers: ContiguousArray<Entry> = []
        @usableFromInline var pending = FIFOQueue<Delivery>()
        @usableFromInline var isDelivering = false
        /// The sequence number of the last accepted event.
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var status = Status.alive
        @usableFromInline var hasOutput: Bool

        @inlinable
        init(hasOutput: Bool) {
            self.hasOutput = hasOutput
        }

        /// Moves to `terminated`, dropping observers and queued events.
        @inlinable
        mutating func terminate(with event: Event) {
            status = .terminated(event)
            observers.removeAll()
            pending.removeAll()
        }
    }

    @usableFromInline
    enum Status {
        case alive
        /// A terminal event with this sequence number is queued or being delivered.
        case terminating(sequence: UInt64)
        case terminated(Event)
    }

    /// One event on its way: to every observer attached before it was accepted, or to one target.
    @usableFromInline
    struct Delivery: Sendable {
        @usableFromInline var event: Event
        @usableFromInline var sequence: UInt64
        @usableFromInline var target: Entry?

        @inlinable
        init(event: Event, sequence: UInt64, target: Entry?) {
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
    /// The same lock that accepts the event also finds its first recipient, so delivering a value to one
    /// observer takes two lock round trips (accept, then finish) and no reference counting of the entry.
    ///
    /// - Returns: Whether the event was accepted (the signal had not terminated).
    @inlinable
    @discardableResult
    func send(whileLocked makeEvent: () throws -> Event?) rethrows -> Bool {
        var cursor: DrainCursor?
        var recipient: Unmanaged<Entry>?
        let accepted = try state.withLock { state -> Bool in
            guard let event = try makeEvent() else { return false }
            guard case .alive = state.status else { return false }
            state.sequence &+= 1
            if event.isTerminating {
                state.status = .terminating(sequence: state.sequence)
            }
            let delivery = Delivery(event: event, sequence: state.sequence, target: nil)
            guard !state.isDelivering else {
                state.pending.append(delivery)
                return true
            }
            state.isDelivering = true
            var drainer = DrainCursor(delivery: delivery, observers: state.observers)
            recipient = drainer.next(in: &state)
            cursor = drainer
            return true
        }
        if var cursor {
            deliver(&cursor, from: recipient)
        }
        return accepted
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
        try state.withLock { state -> (accepted: Bool, drain: PendingDrain?) in
            guard let event = try makeEvent() else { return (false, nil) }
            guard case .alive = state.status else { return (false, nil) }
            state.sequence &+= 1
            if event.isTerminating {
                state.status = .terminating(sequence: state.sequence)
            }
            let delivery = Delivery(event: event, sequence: state.sequence, target: nil)
            guard !state.isDelivering else {
                state.pending.append(delivery)
                return (true, nil)
            }
            state.isDelivering = true
            return (true, PendingDrain(core: self, first: delivery, observers: state.observers))
        }
    }

    /// A delivery that was staged and must now be run by the thread that staged it.
    @usableFromInline
    struct PendingDrain: Sendable {
        @usableFromInline let core: SignalCore
        @usableFromInline let first: Delivery
        @usableFromInline let observers: ContiguousArray<Entry>

        @inlinable
        init(core: SignalCore, first: Delivery, observers: ContiguousArray<Entry>) {
            self.core = core
            self.first = first
            self.observers = observers
        }

        /// Delivers the staged event and everything queued behind it.
        ///
        /// Call it with no lock held.
        @inlinable
        func run() {
            core.drain(from: first, observers: observers)
        }
    }

    /// Delivers `first`, then every queued event, until the queue is empty.
    ///
    /// Only the thread that set `isDelivering` runs this, so deliveries never overlap.
    @inlinable
    func drain(from first: Delivery, observers snapshot: ContiguousArray<Entry>) {
        var cursor = DrainCursor(delivery: first, observers: snapshot)
        let recipient = state.withLock { cursor.next(in: &$0) }
        deliver(&cursor, from: recipient)
    }

    /// Calls `recipient` with the cursor's event, then every later recipient the cursor finds, one lock
    /// round trip each, until the queue is empty; then ends the lifetime if the signal terminated.
    ///
    /// No lock is held during a callout. The entries are unretained: the cursor's snapshot of the
    /// observers (or its delivery's target) keeps each one alive until the cursor moves past it.
    @inlinable
    func deliver(_ cursor: inout DrainCursor, from recipient: Unmanaged<Entry>?) {
        var recipient = recipient
        while let current = recipient {
            let event = cursor.delivery.event
            current._withUnsafeGuaranteedRef { $0.observer.send(event) }
            recipient = state.withLock { cursor.next(in: &$0) }
        }
        if cursor.endsLifetime {
            lifetime.ender.dispose()
        }
    }

    /// Where the draining thread stands: the delivery under way, the observers it goes to, and the next
    /// one to look at.
    @usableFromInline
    struct DrainCursor {
        @usableFromInline var delivery: Delivery
        /// The observers attached when the delivery started; it also keeps their entries alive.
        @usableFromInline var observers: ContiguousArray<Entry>
        @usableFromInline var index = 0
        /// Whether a terminal event was delivered, so the lifetime must end once the drain is over.
        @usableFromInline var endsLifetime = false

        @inlinable
        init(delivery: Delivery, observers: ContiguousArray<Entry>) {
            self.delivery = delivery
            self.observers = observers
        }

        /// Call under the lock: the next active observer of the current delivery, moving on to queued
        /// deliveries when it has none left; `nil` when the queue is empty, and the signal is then idle.
        ///
        /// An observer that was detached before its turn is skipped, and so is one attached after the
        /// delivery's event was accepted.
        @inlinable
        mutating func next(in state: inout State) -> Unmanaged<Entry>? {
            while true {
                if let target = delivery.target {
                    if index == 0 {
                        index = 1
                        if target.isActive { return Unmanaged.passUnretained(target) }
                    }
                } else {
                    while index < observers.count {
                        let entry = Unmanaged.passUnretained(observers[index])
                        index += 1
                        let isRecipient = entry._withUnsafeGuaranteedRef {
                            $0.isActive && $0.firstSequence <= delivery.sequence
                        }
                        if isRecipient { return entry }
                    }
                    if delivery.event.isTerminating, case .terminating = state.status {
                        state.terminate(with: delivery.event)
                        endsLifetime = true
                    }
                }
                guard let next = state.pending.popFirst() else {
                    state.isDelivering = false
                    return nil
                }
                delivery = next
                observers = state.observers
                index = 0
            }
        }
    }

    // MARK: Observing

    /// Attaches `observer`; see `Signal.observe(_:)-(Observer)`.
    ///
    /// - Parameters:
    ///   - observer: Receives the events.
    ///   - initialEvent: Runs under the lock; the event it returns is delivered to this observer
    ///     only, before any event accepted later (a property's current value).
    /// - Returns: The disposable that detaches the observer.
    @inlinable
    func observe(_ observer: Signal<Value, Error>.Observer, initialEvent: () -> Event? = { nil }) -> any Disposable {
        var late: Event?
        var first: Delivery?
        let entry = state.withLock { state -> Entry in
            let entry = Entry(observer: observer, core: self)
            switch state.status {
            case .terminated(let event):
                entry.isActive = false
                late = event
            case .terminating(let sequence):
                entry.firstSequence = sequence
                state.observers.append(entry)
            case .alive:
                entry.firstSequence = state.sequence &+ 1
                state.observers.append(entry)
                if let event = initialEvent() {
                    state.sequence &+= 1
                    let delivery = Delivery(event: event, sequence: state.sequence, target: entry)
                    if state.isDelivering {
                        state.pending.append(delivery)
                    } else {
                        state.isDelivering = true
                        first = delivery
                    }
                }
            }
            return entry
        }
        if let late {
            observer.send(late)
        } else if let first {
            drain(from: first, observers: [])
        }
        return entry
    }

    /// Detaches `entry`; tears the signal down if it was the last observer of an unreachable signal.
    @inlinable
    func remove(_ entry: Entry) {
        let tearsDown = state.withLock { state -> Bool in
            guard entry.isActive else { return false }
            entry.isActive = false
            if let index = state.observers.firstIndex(where: { $0 === entry }) {
                state.observers.remove(at: index)
            }
            guard state.observers.isEmpty, !state.hasOutput, case .alive = state.status else { return false }
            state.terminate(with: .interrupted)
            return true
        }
        if tearsDown {
            lifetime.ender.dispose()
        }
    }

    /// Called when the ``Signal`` object is released: with no observer left, nothing can ever
    /// observe the signal again, so it tears down.
    @inlinable
    func outputReleased() {
        let tearsDown = state.withLock { state -> Bool in
            state.hasOutput = false
            guard state.observers.isEmpty, case .alive = state.status else { return false }
            state.terminate(with: .interrupted)
            return true
        }
        if tearsDown {
            lifetime.ender.dispose()
        }
    }

    /// Whether the signal has terminated or is delivering its terminal event.
    @inlinable
    var hasTerminated: Bool {
        state.withLock { state in
            if case .alive = state.status { return false }
            return true
        }
    }
}

/// One attachment of an observer to a signal, and the disposable that detaches it.
@usableFromInline
final class ObserverEntry<Value: Sendable, Error: Swift.Error>: Disposable, @unchecked Sendable {
    @usableFromInline let observer: Signal<Value, Error>.Observer
    // Strong: a weak reference would move the core's reference counts to a side table and slow down
    // every retain of it. The cycle core -> entry -> core lasts only while the entry is attached.
    @usableFromInline let core: SignalCore<Value, Error>
    // Guarded by `core`'s lock (so the dynamic exclusivity check is redundant).
    @exclusivity(unchecked) @usableFromInline var isActive = true
    // Guarded by `core`'s lock; set once, when the entry is attached.
    @exclusivity(unchecked) @usableFromInline var firstSequence: UInt64 = 0

    @inlinable
    init(observer: Signal<Value, Error>.Observer, core: SignalCore<Value, Error>) {
        self.observer = observer
        self.core = core
    }

    @inlinable
    var isDisposed: Bool {
        core.state.withLock { _ in !isActive }
    }

    @inlinable
    func dispose() {
        core.remove(self)
    }
}
