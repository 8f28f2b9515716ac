/// What the drainer of a signal shares with everyone who attaches, detaches or sends, under the lock of
/// `SignalCoreBase.domain`.
@usableFromInline
struct DeliveryState {
    /// Whether a drainer is delivering.
    @usableFromInline var isDelivering = false
    /// The sequence number of the last accepted event.
    @usableFromInline var sequence: UInt64 = 0
    /// The sequence number of the event the drainer is delivering: the signals derived from this one
    /// deliver it inline to the observers they had when it was accepted.
    @usableFromInline var deliverySequence: UInt64 = 0
    /// Handlers detached while a delivery ran, which a callout may still be running: the drainer
    /// releases them after its next critical section, with no lock held.
    @usableFromInline var parked: ContiguousArray<AnyObject> = []

    @inlinable
    init() {}
}

/// The part of a signal's machinery that does not depend on its types: the lock, the observer list, the
/// status, and everything detaching and tearing down needs.
///
/// Detaching runs through `any Disposable`, so it cannot be specialised for the signal's types: as generic
/// code it spent most of its time looking up generic metadata. Keeping it non-generic makes it as cheap
/// as it looks. `SignalCore` adds the typed part: events, the queue and the delivery loop.
@usableFromInline
class SignalCoreBase: @unchecked Sendable {
    /// The lock that guards the delivery state and every `final var` below, and `isActive`, `handler`
    /// and `firstSequence` of every entry.
    @usableFromInline final let domain: LockedState<DeliveryState>

    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var observers: ContiguousArray<ObserverEntry> = []
    /// The index in `observers` of the next entry the drainer looks at; a removal before it moves it back.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var cursor = 0
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var phase = Phase.alive
    /// Whether the ``Signal`` object is still reachable, so that new observers may come.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var hasOutput: Bool

    /// The observation of the upstream signal that feeds a derived signal (`nil` for any other signal,
    /// and once it ended); disposed when the signal terminates or tears down.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var upstream: ObserverEntry?

    /// Whether this is the signal of a producer run: it does not tear down when its output is released
    /// or loses its last observer, only when its input is released or it terminates, so a run whose
    /// signal nobody observes or keeps still runs its work.
    @usableFromInline final let isRun: Bool

    /// The lifetime of a signal that is not derived; see ``lifetime``.
    @usableFromInline final let ownLifetime: Lifetime?

    /// Makes the core of a signal that accepts events itself, with a lock of its own.
    @inlinable
    init(hasOutput: Bool, isRun: Bool) {
        domain = LockedState(DeliveryState())
        self.hasOutput = hasOutput
        self.isRun = isRun
        ownLifetime = Lifetime(ender: CompositeDisposable())
    }

    /// Makes the core of a signal derived from `upstream`: it shares `upstream`'s lock and delivery
    /// state, and its events are delivered inline within `upstream`'s deliveries.
    @inlinable
    init(derivedFrom upstream: SignalCoreBase) {
        domain = upstream.domain
        hasOutput = true
        isRun = false
        ownLifetime = nil
    }

    /// Ends when the signal terminates or tears down; the signal's resources hang from it.
    ///
    /// Only a signal that is not derived has one.
    @inlinable
    final var lifetime: Lifetime {
        ownLifetime.unsafelyUnwrapped
    }

    /// Ends the signal's lifetime, or, for a derived signal, its observation of the upstream signal.
    ///
    /// Call once the signal has terminated or torn down, with no lock held.
    @usableFromInline
    final func endLifetime() {
        if let ownLifetime {
            ownLifetime.ender.dispose()
        } else {
            domain.withLock { _ in upstream.take() }?.dispose()
        }
    }

    @usableFromInline
    enum Phase {
        case alive
        /// A terminal event with this sequence number is queued or being delivered.
        case terminating(sequence: UInt64)
        /// Terminated by an event, or torn down (late observers then get `interrupted`).
        case terminated
    }

    /// The next observer to receive the value with `sequence`, its handler unretained.
    ///
    /// Call under the lock. Returns `nil` when every observer has been offered the value. An entry
    /// that was detached before its turn is skipped, and so is one attached after the value was accepted.
    @inlinable
    final func nextValueRecipient(sequence: UInt64) -> Unmanaged<AnyObject>? {
        while cursor < observers.count {
            let entry = observers[cursor]
            cursor &+= 1
            if entry.isActive && entry.firstSequence <= sequence {
                // An active entry always has its handler.
                return Unmanaged.passUnretained(entry.handler.unsafelyUnwrapped)
            }
        }
        return nil
    }

    /// The next observer to receive the event with `sequence`, its handler unretained.
    ///
    /// Call under the lock. Returns `nil` when every observer has been offered the event. An entry that
    /// receives a terminal event is marked served and lets go of its handler, which moves to `held`: the
    /// drainer releases it after the callout.
    @inlinable
    final func nextRecipient(sequence: UInt64, isTerminating: Bool, held: inout AnyObject?) -> Unmanaged<AnyObject>? {
        guard isTerminating else { return nextValueRecipient(sequence: sequence) }
        while cursor < observers.count {
            let entry = observers[cursor]
            cursor &+= 1
            guard entry.isActive && entry.firstSequence <= sequence else { continue }
            entry.isActive = false
            held = entry.handler.take()
            if let held { return Unmanaged.passUnretained(held) }
        }
        return nil
    }

    /// Detaches `entry`; tears the signal down if it was the last observer of an unreachable signal.
    @usableFromInline
    final func remove(_ entry: ObserverEntry) {
        // The handler and anything a teardown drops are released after unlocking.
        var retired: ContiguousArray<ObserverEntry> = []
        let (released, tearsDown) = domain.withLock { delivery -> (AnyObject?, Bool) in
            guard entry.isActive else { return (nil, false) }
            entry.isActive = false
            var released = entry.handler.take()
            if let index = observers.firstIndex(where: { $0 === entry }) {
                observers.remove(at: index)
                if index < cursor {
                    cursor &-= 1
                }
            }
            if delivery.isDelivering, let handler = released {
                // A callout may be running this handler unretained: the drainer releases it.
                delivery.parked.append(handler)
                released = nil
            }
            guard observers.isEmpty, !hasOutput, !isRun, case .alive = phase else { return (released, false) }
            retired = tearDown()
            return (released, true)
        }
        withExtendedLifetime((released, retired)) {}
        if tearsDown {
            endLifetime()
        }
    }

    /// Called when the ``Signal`` object is released: with no observer left, nothing can ever observe
    /// the signal again, so it tears down, unless it is the signal of a producer run (see ``isRun``).
    @usableFromInline
    final func outputReleased() {
        var retired: ContiguousArray<ObserverEntry> = []
        let tearsDown = domain.withLock { _ -> Bool in
            hasOutput = false
            guard observers.isEmpty, !isRun, case .alive = phase else { return false }
            retired = tearDown()
            return true
        }
        withExtendedLifetime(retired) {}
        if tearsDown {
            endLifetime()
        }
    }

    /// Call under the lock, on a live signal with no observer that nobody can reach: marks it terminated
    /// (late observers get `interrupted`).
    ///
    /// Events still queued are delivered by the running drainer to nobody, and released by it.
    ///
    /// - Returns: The observer list it drops, for the caller to release after unlocking.
    @usableFromInline
    final func tearDown() -> ContiguousArray<ObserverEntry> {
        phase = .terminated
        defer { observers = [] }
        return observers
    }

    /// Whether the signal has terminated or is delivering its terminal event.
    @inlinable
    final var hasTerminated: Bool {
        domain.withLock { _ in
            if case .alive = phase { return false }
            return true
        }
    }
}

/// One attachment of an observer to a signal, and the disposable that detaches it.
@usableFromInline
final class ObserverEntry: Disposable, @unchecked Sendable {
    // Guarded by `core`'s lock. The signal's `Signal.Observer`; set to `nil` (and released after
    // unlocking) once the entry is detached or has received its terminal event, so a kept disposable
    // does not keep the handler alive.
    @exclusivity(unchecked) @usableFromInline var handler: AnyObject?
    // Strong: a weak reference would move the core's reference counts to a side table and slow down
    // every retain of it. The cycle core -> entry -> core lasts only while the entry is attached.
    @usableFromInline let core: SignalCoreBase
    // Guarded by `core`'s lock (so the dynamic exclusivity check is redundant).
    @exclusivity(unchecked) @usableFromInline var isActive = true
    // Guarded by `core`'s lock; set once, when the entry is attached.
    @exclusivity(unchecked) @usableFromInline var firstSequence: UInt64 = 0

    @inlinable
    init(handler: AnyObject, core: SignalCoreBase) {
        self.handler = handler
        self.core = core
    }

    @usableFromInline
    var isDisposed: Bool {
        core.domain.withLock { _ in !isActive }
    }

    @usableFromInline
    func dispose() {
        core.remove(self)
    }
}
