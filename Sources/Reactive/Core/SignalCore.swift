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
        ///
        /// - Returns: What was dropped; the caller releases it after unlocking (see ``Retired``).
        @inlinable
        mutating func terminate(with event: Event) -> Retired {
            status = .terminated(event)
            let retired = Retired(observers: observers, pending: pending)
            observers = []
            pending = FIFOQueue()
            return retired
        }
    }

    /// Observers and events a critical section let go of, to be released after unlocking: releasing an
    /// event's value or an observer's handler can run a `deinit`, which is user code and may call back
    /// into this signal.
    @usableFromInline
    struct Retired {
        @usableFromInline let observers: ContiguousArray<Entry>
        @usableFromInline let pending: FIFOQueue<Delivery>

        @inlinable
        init(observers: ContiguousArray<Entry>, pending: FIFOQueue<Delivery>) {
            self.observers = observers
            self.pending = pending
        }
    }

    /// What the drainer does after one critical section.
    @usableFromInline
    enum DrainStep {
        /// Call this observer with the current event.
        case deliver(Signal<Value, Error>.Observer)
        /// The current event or snapshot was replaced: release the old one, then look again.
        case next
        /// The queue is empty and the signal idle.
        case done
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
    /// - Returns: Whether the event was accepted (the signal had not terminated).
    @inlinable
    @discardableResult
    func send(whileLocked makeEvent: () throws -> Event?) rethrows -> Bool {
        let (accepted, drain) = try stage(makeEvent)
        drain?.run()
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
    /// Only the thread that set `isDelivering` runs this, so deliveries never overlap. Each critical
    /// section replaces the current event or snapshot at most once and hands the old one to a local
    /// that is cleared after unlocking, so no value or handler is ever released under the lock.
    @inlinable
    func drain(from first: Delivery, observers snapshot: ContiguousArray<Entry>) {
        var delivery = first
        var observers = snapshot
        var index = 0
        var endsLifetime = false
        var retiredDelivery: Delivery?
        var retiredObservers: ContiguousArray<Entry> = []
        var retiredState: Retired?
        while true {
            let step = state.withLock { state -> DrainStep in
                if let target = delivery.target {
                    if index == 0 {
                        index = 1
                        if target.isActive, let observer = target.observer { return .deliver(observer) }
                    }
                } else {
                    while index < observers.count {
                        let entry = observers[index]
                        index += 1
                        guard entry.isActive && entry.firstSequence <= delivery.sequence else { continue }
                        guard delivery.event.isTerminating else {
                            if let observer = entry.observer { return .deliver(observer) }
                            continue
                        }
                        // An entry gets one terminal event, then lets go of its handler (the drainer
                        // releases it after the callout). Marking it served also lets the rescan below
                        // find the observers that attached during this delivery.
                        entry.isActive = false
                        if let observer = entry.observer.take() { return .deliver(observer) }
                    }
                    if delivery.event.isTerminating, case .terminating = state.status {
                        // Observers attached while the terminal event was being delivered are not in
                        // the snapshot, and after this point nothing would ever reach them.
                        if state.observers.contains(where: { $0.isActive }) {
                            retiredObservers = observers
                            observers = state.observers
                            index = 0
                            return .next
                        }
                        retiredState = state.terminate(with: delivery.event)
                        endsLifetime = true
                    }
                }
                guard let next = state.pending.popFirst() else {
                    state.isDelivering = false
                    return .done
                }
                retiredDelivery = delivery
                delivery = next
                retiredObservers = observers
                observers = state.observers
                index = 0
                return .next
            }
            switch step {
            case .deliver(let observer):
                observer.send(delivery.event)
            case .next:
                // Released here, with the lock free. Reading them first keeps the optimiser from ending
                // their lifetimes at the last write, inside the critical section.
                withExtendedLifetime(retiredDelivery) {}
                withExtendedLifetime(retiredObservers) {}
                retiredDelivery = nil
                retiredObservers = []
            case .done:
                withExtendedLifetime(retiredState) {}
                if endsLifetime {
                    lifetime.ender.dispose()
                }
                return
            }
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
    func observe(_ observer: Signal<Value, Error>.Observer, initialEvent: () -> Event? = { nil }) -> any Disposable {
        var late: Event?
        var lateInitial: Event?
        var first: Delivery?
        let entry = state.withLock { state -> Entry in
            let entry = Entry(observer: observer, core: self)
            switch state.status {
            case .terminated(let event):
                entry.isActive = false
                entry.observer = nil
                // A property whose change signal has ended still has a current value to send first.
                lateInitial = initialEvent()
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
            if let lateInitial { observer.send(lateInitial) }
            observer.send(late)
        } else if let first {
            drain(from: first, observers: [])
        }
        return entry
    }

    /// Detaches `entry`; tears the signal down if it was the last observer of an unreachable signal.
    @inlinable
    func remove(_ entry: Entry) {
        // The handler and anything a teardown drops are released after unlocking (see `Retired`).
        let (released, retired) = state.withLock { state -> (Signal<Value, Error>.Observer?, Retired?) in
            guard entry.isActive else { return (nil, nil) }
            entry.isActive = false
            let released = entry.observer.take()
            if let index = state.observers.firstIndex(where: { $0 === entry }) {
                state.observers.remove(at: index)
            }
            guard state.observers.isEmpty, !state.hasOutput, case .alive = state.status else {
                return (released, nil)
            }
            return (released, state.terminate(with: .interrupted))
        }
        withExtendedLifetime(released) {}
        if retired != nil {
            lifetime.ender.dispose()
        }
    }

    /// Called when the ``Signal`` object is released: with no observer left, nothing can ever
    /// observe the signal again, so it tears down.
    @inlinable
    func outputReleased() {
        let retired = state.withLock { state -> Retired? in
            state.hasOutput = false
            guard state.observers.isEmpty, case .alive = state.status else { return nil }
            return state.terminate(with: .interrupted)
        }
        if retired != nil {
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
    // Guarded by `core`'s lock. Set to `nil` (and released after unlocking) once the entry is detached
    // or has received its terminal event, so a kept disposable does not keep the handler alive.
    @exclusivity(unchecked) @usableFromInline var observer: Signal<Value, Error>.Observer?
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
