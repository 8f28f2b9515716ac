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
final class SignalCore<Value: Sendable, Error: Swift.Error>: @unchecked Sendable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Entry = ObserverEntry<Value, Error>
    @usableFromInline typealias Handler = Signal<Value, Error>.Observer

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
        /// The index in `observers` of the next entry the drainer looks at.
        @usableFromInline var cursor = 0
        @usableFromInline var pending = FIFOQueue<Delivery>()
        @usableFromInline var isDelivering = false
        /// The sequence number of the last accepted event.
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var status = Status.alive
        @usableFromInline var hasOutput: Bool
        /// Handlers detached while a delivery ran, which a callout may still be using: the drainer
        /// releases them after its next critical section.
        @usableFromInline var parked: ContiguousArray<Handler> = []

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

        /// The next observer to receive the value with `sequence`, its handler unretained.
        ///
        /// Call under the lock. Returns `nil` when every observer has been offered the value; see
        /// `nextRecipient(sequence:isTerminating:held:)`.
        @inlinable
        mutating func nextValueRecipient(sequence: UInt64) -> Unmanaged<Handler>? {
            while cursor < observers.count {
                let entry = observers[cursor]
                cursor &+= 1
                if entry.isActive && entry.firstSequence <= sequence {
                    // An active entry always has its handler.
                    return Unmanaged.passUnretained(entry.observer.unsafelyUnwrapped)
                }
            }
            return nil
        }

        /// The next observer to receive the event with `sequence`, its handler unretained.
        ///
        /// Call under the lock. Returns `nil` when every observer has been offered the event. An entry that was detached before its turn is skipped, and so is one attached after the
        /// event was accepted. An entry that receives a terminal event is marked served and lets go of
        /// its handler, which moves to `held`: the drainer releases it after the callout.
        @inlinable
        mutating func nextRecipient(
            sequence: UInt64,
            isTerminating: Bool,
            held: inout Handler?
        ) -> Unmanaged<Handler>? {
            while cursor < observers.count {
                let entry = observers[cursor]
                cursor &+= 1
                guard entry.isActive && entry.firstSequence <= sequence else { continue }
                guard isTerminating else {
                    // An active entry always has its handler.
                    return Unmanaged.passUnretained(entry.observer.unsafelyUnwrapped)
                }
                entry.isActive = false
                held = entry.observer.take()
                if let held { return Unmanaged.passUnretained(held) }
            }
            return nil
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
        let accepted = try state.withLock { state -> Bool in
            guard let accepted = try makeEvent(), case .alive = state.status else { return false }
            state.sequence &+= 1
            let isTerminating = accepted.isTerminating
            if isTerminating {
                state.status = .terminating(sequence: state.sequence)
            }
            guard !state.isDelivering else {
                state.pending.append(Delivery(event: accepted, sequence: state.sequence, target: nil))
                return true
            }
            state.isDelivering = true
            sequence = state.sequence
            if !isTerminating {
                state.cursor = 0
                recipient = state.nextValueRecipient(sequence: sequence)
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
            let isIdle = state.withLock { state -> Bool in
                recipient = state.nextValueRecipient(sequence: sequence)
                guard recipient == nil, state.pending.isEmpty, state.parked.isEmpty else { return false }
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
        let accepted = try state.withLock { state -> Bool in
            guard let event = try makeEvent(), case .alive = state.status else { return false }
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
        var recipient: Unmanaged<Handler>?
        var held: Handler?
        var endsLifetime = false
        var parked: ContiguousArray<Handler> = []
        var retiredEvent: Event?
        var retiredTarget: Entry?
        var retiredState: Retired?
        while true {
            if let handler = recipient {
                handler._withUnsafeGuaranteedRef { $0.send(event) }
                recipient = nil
                held = nil
            }
            let isDone = state.withLock { state -> Bool in
                if !state.parked.isEmpty {
                    swap(&parked, &state.parked)
                }
                if needsCursorReset {
                    needsCursorReset = false
                    state.cursor = 0
                }
                if let entry = target {
                    if !isServed {
                        isServed = true
                        if entry.isActive, let handler = entry.observer {
                            recipient = Unmanaged.passUnretained(handler)
                            return false
                        }
                    }
                } else {
                    if let next = state.nextRecipient(sequence: sequence, isTerminating: isTerminating, held: &held) {
                        recipient = next
                        return false
                    }
                    if isTerminating, case .terminating = state.status {
                        // Observers attached while the terminal event was being delivered come after the
                        // cursor, or in the place of served entries before it: look at the whole list again.
                        state.cursor = 0
                        if let next = state.nextRecipient(sequence: sequence, isTerminating: true, held: &held) {
                            recipient = next
                            return false
                        }
                        retiredState = state.terminate(with: event)
                        endsLifetime = true
                    }
                }
                guard let next = state.pending.popFirst() else {
                    state.isDelivering = false
                    return true
                }
                retiredEvent = event
                retiredTarget = target
                event = next.event
                sequence = next.sequence
                isTerminating = event.isTerminating
                target = next.target
                if target == nil {
                    state.cursor = 0
                    recipient = state.nextRecipient(sequence: sequence, isTerminating: isTerminating, held: &held)
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
            lifetime.ender.dispose()
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
            drain(first, isStarted: false)
        }
        return entry
    }

    /// Detaches `entry`; tears the signal down if it was the last observer of an unreachable signal.
    @inlinable
    func remove(_ entry: Entry) {
        // The handler and anything a teardown drops are released after unlocking (see `Retired`).
        let (released, retired) = state.withLock { state -> (Handler?, Retired?) in
            guard entry.isActive else { return (nil, nil) }
            entry.isActive = false
            var released = entry.observer.take()
            if let index = state.observers.firstIndex(where: { $0 === entry }) {
                state.observers.remove(at: index)
                if index < state.cursor {
                    state.cursor &-= 1
                }
            }
            if state.isDelivering, let handler = released {
                // A callout may be running this handler unretained: the drainer releases it.
                state.parked.append(handler)
                released = nil
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
