/// The shared machinery of a signal: its observers, its delivery state machine and the loops that run it.
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
/// The state lives in two values under the lock: the observer list (``SignalCoreBase/list``) and the
/// typed ``SignalMachine`` (``machine``), whose transitions this class calls in its critical sections.
/// The cost of a value is two lock round trips and no reference counting: the lock that accepts an
/// event also finds its first recipient, and the one after each callout finds the next recipient or
/// marks the signal idle. Handlers are called without being retained: a handler that is detached while
/// a delivery runs is parked under the lock instead of being released, and the drainer releases it after
/// its next critical section, when no callout can still be using it.
@usableFromInline
final class SignalCore<Value: Sendable, Error: Swift.Error>: SignalCoreBase, @unchecked Sendable {
    @usableFromInline typealias Event = Signal<Value, Error>.Event
    @usableFromInline typealias Handler = Signal<Value, Error>.Observer
    @usableFromInline typealias Machine = SignalMachine<Value, Error>
    @usableFromInline typealias Delivery = Machine.Delivery

    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline var machine = Machine()
    // Owned by the drainer role: set under `domain`'s lock by the staging that makes its caller the drainer,
    // taken by that caller (in `stage(_:)`, or in `runStaged()` later); no other thread touches it in
    // between, since no other staging can make a drainer until that drain has run.
    @exclusivity(unchecked) @usableFromInline var staged: Delivery?

    @inlinable
    override init(hasOutput: Bool = true, isRun: Bool = false) {
        super.init(hasOutput: hasOutput, isRun: isRun)
    }

    @inlinable
    override init(derivedFrom upstream: SignalCoreBase) {
        super.init(derivedFrom: upstream)
    }

    /// `handler` as the signal's observer type, still unretained.
    @inlinable
    static func typed(_ handler: Unmanaged<AnyObject>) -> Unmanaged<Handler> {
        Unmanaged<Handler>.fromOpaque(handler.toOpaque())
    }

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
    /// The critical section that accepts a value also finds its first recipient, so delivering a value
    /// to one observer takes two lock round trips: accept, then finish.
    ///
    /// - Returns: Whether the event was accepted (the signal had not terminated).
    @inlinable
    @discardableResult
    func send(whileLocked makeEvent: () throws -> Event?) rethrows -> Bool {
        var event: Event?
        var sequence: UInt64 = 0
        var recipient: Unmanaged<Handler>?
        var hasNoRecipient = false
        let accepted = try domain.withLock { state -> Bool in
            guard let made = try makeEvent() else { return false }
            switch machine.accept(made, for: nil, list: &list, domain: &state) {
            case .rejected:
                return false
            case .queued:
                return true
            case .deliver(let number):
                machine.begin(number, list: &list, domain: &state)
                if !made.isTerminating {
                    recipient = list.nextValueRecipient(sequence: number).map(Self.typed)
                    // A value nobody observes is delivered once accepted: the signal is idle again at once,
                    // in this one critical section.
                    if recipient == nil, state.parked.isEmpty, machine.queue.isEmpty {
                        _ = machine.next(domain: &state)
                        hasNoRecipient = true
                    }
                }
                sequence = number
                // Kept past the lock even when delivered, so that it is released with no lock held.
                event = made
                return true
            }
        }
        guard let event, !hasNoRecipient else { return accepted }
        guard !event.isTerminating else {
            drain(Delivery(event: event, sequence: sequence, target: nil), isBegun: true)
            return true
        }
        // The value path: each lock round trip after a callout finds the next recipient, or, once every
        // observer has the value and nothing is queued or parked, makes the signal idle.
        while let handler = recipient {
            handler._withUnsafeGuaranteedRef { $0.send(event) }
            let isIdle = domain.withLock { state -> Bool in
                recipient = list.nextValueRecipient(sequence: sequence).map(Self.typed)
                guard recipient == nil, state.parked.isEmpty, machine.queue.isEmpty else { return false }
                _ = machine.next(domain: &state)
                return true
            }
            if isIdle {
                return true
            }
        }
        // Every observer has the value, and events were queued or handlers parked meanwhile: the general
        // loop finishes this delivery and drains the rest.
        drain(Delivery(event: event, sequence: sequence, target: nil), isBegun: true)
        return true
    }

    /// Accepts the event `makeEvent` returns without delivering it yet.
    ///
    /// If no delivery is running, the caller becomes the drainer and must call `PendingDrain.run()`
    /// on the returned drain, with no lock held; otherwise the event is queued for the running
    /// drainer and there is no drain to run. A value nobody observes, of a type with nothing to release
    /// (`Bool`, a struct of integers), is delivered at once: there is no drain to run either. Staging
    /// several signals before running their drains lets a group of properties change together: an
    /// observer of any of them already reads every new value.
    ///
    /// - Returns: Whether an event was accepted, and the drain the caller must run, if any.
    @inlinable
    func stage(_ makeEvent: () throws -> Event?) rethrows -> (accepted: Bool, drain: PendingDrain?) {
        let (accepted, drains) = try stageKeepingDrain(makeEvent)
        guard drains, let first = staged.take() else { return (accepted, nil) }
        return (accepted, PendingDrain(core: self, first: first))
    }

    /// ``stage(_:)``, keeping the drain on the signal: when it returns that the caller became the drainer,
    /// the caller must call ``runStaged()`` with no lock held.
    ///
    /// A drain kept here costs nothing to hand around (a ``SignalDrain`` holds the signal and a function with
    /// no context), where a drain captured in a closure costs an allocation per staged event.
    ///
    /// A drain that is never run leaves the signal draining forever, with its event kept here until the
    /// signal is released.
    ///
    /// - Returns: Whether an event was accepted, and whether the caller became the drainer.
    @inlinable
    func stageKeepingDrain(_ makeEvent: () throws -> Event?) rethrows -> (accepted: Bool, drains: Bool) {
        var drains = false
        let accepted = try domain.withLock { state -> Bool in
            guard let event = try makeEvent() else { return false }
            switch machine.accept(event, for: nil, list: &list, domain: &state) {
            case .rejected:
                return false
            case .queued:
                return true
            case .deliver(let sequence):
                // Nobody to notify: delivered once accepted, with no drain to run, as in
                // `send(whileLocked:)`. Only for an event whose release runs no code (`_isPOD`), since it is
                // released here, under the lock; the observer list is looked at first, so that a signal
                // with observers pays nothing for the check, even in unspecialised code.
                if list.entries.isEmpty, _isPOD(Event.self), !event.isTerminating, state.parked.isEmpty,
                    machine.queue.isEmpty
                {
                    machine.begin(sequence, list: &list, domain: &state)
                    _ = machine.next(domain: &state)
                    return true
                }
                staged = Delivery(event: event, sequence: sequence, target: nil)
                drains = true
                return true
            }
        }
        return (accepted, drains)
    }

    /// Delivers the event a ``stageKeepingDrain(_:)`` left to its caller, and everything queued behind it.
    ///
    /// Only that caller calls it, once, with no lock held.
    @inlinable
    func runStaged() {
        guard let first = staged.take() else { return }
        drain(first, isBegun: false)
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
            core.drain(first, isBegun: false)
        }
    }

    /// Delivers `first`, then every queued delivery, until the queue is idle.
    ///
    /// Only the drainer runs this (the caller that ``SignalMachine/accept(_:for:list:domain:)`` made the
    /// drainer), so deliveries never overlap. Each critical section is one step of the machine: the next
    /// recipient, or the end of the delivery and the start of the next one. It replaces the current
    /// delivery at most once and hands the old one, like parked handlers and what a termination drops, to
    /// a local that is cleared after unlocking, so no value or handler is ever released under the lock.
    ///
    /// - Parameters:
    ///   - first: The delivery that made the caller the drainer.
    ///   - isBegun: Whether `first` has begun (the value path of `send(whileLocked:)` hands over to the
    ///     drain after its last callout).
    @inlinable
    func drain(_ first: consuming Delivery, isBegun: Bool) {
        var delivery = consume first
        var isBegun = isBegun
        var recipient: Unmanaged<AnyObject>?
        var held: AnyObject?
        var parked: ContiguousArray<AnyObject> = []
        var finished: Delivery?
        var retired: Machine.Retired?
        #if DEBUG
            var delivered = 0
        #endif
        while true {
            if let handler = recipient {
                Self.typed(handler)._withUnsafeGuaranteedRef { $0.send(delivery.event) }
                recipient = nil
                held = nil
            }
            let isIdle = domain.withLock { state -> Bool in
                if !state.parked.isEmpty {
                    swap(&parked, &state.parked)
                }
                if !isBegun {
                    isBegun = true
                    machine.begin(delivery.sequence, list: &list, domain: &state)
                }
                recipient = machine.nextRecipient(of: &delivery, list: &list, held: &held)
                if recipient != nil {
                    return false
                }
                if let dropped = machine.finish(delivery, list: &list) {
                    retired = dropped
                }
                guard let next = machine.next(domain: &state) else { return true }
                #if DEBUG
                    delivered &+= 1
                    if delivered > Self.feedbackLoopLimit {
                        Self.reportFeedbackLoop()
                    }
                #endif
                // The finished delivery moves out, to be released after unlocking.
                finished = next
                swap(&delivery, &finished!)
                machine.begin(delivery.sequence, list: &list, domain: &state)
                recipient = machine.nextRecipient(of: &delivery, list: &list, held: &held)
                return false
            }
            // Released here, with the lock free. Reading them first keeps the optimiser from ending
            // their lifetimes at the last write, inside the critical section.
            if !parked.isEmpty {
                withExtendedLifetime(parked) {}
                parked = []
            }
            if finished != nil {
                withExtendedLifetime(finished) {}
                finished = nil
            }
            if isIdle {
                break
            }
        }
        if retired != nil {
            withExtendedLifetime(retired) {}
            retired = nil
            endLifetime()
        }
    }
}
