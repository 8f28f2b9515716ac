/// What every signal of one lock domain shares under the lock of `SignalCoreBase.domain`: whether a drainer
/// runs, the numbering of events, the event being delivered, and the handlers waiting for the drainer to
/// release them.
///
/// A signal and the signals derived from it share one domain (see `SignalCoreBase.init(derivedFrom:)`).
@usableFromInline
struct DeliveryState {
    /// Whether a drainer is delivering: the flag of the root signal's ``DrainQueue``.
    @usableFromInline var isDraining = false
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
/// phase, and everything detaching and tearing down needs.
///
/// Detaching runs through `any Disposable`, so it cannot be specialised for the signal's types: as generic
/// code it spent most of its time looking up generic metadata. Keeping it non-generic makes it as cheap
/// as it looks. `SignalCore` adds the typed part: the delivery state machine and the loops that run it.
@usableFromInline
class SignalCoreBase: @unchecked Sendable {
    /// The lock that guards the delivery state, `list`, `upstream`, the core's `machine`, and `isActive`,
    /// `handler` and `firstSequence` of every entry.
    @usableFromInline final let domain: LockedState<DeliveryState>

    /// The observers, the drainer's cursor among them, and the phase.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var list: ObserverList

    /// The observation of the upstream signal that feeds a derived signal (`nil` for any other signal,
    /// and once it ended); disposed when the signal terminates or tears down.
    // Guarded by `domain`'s lock.
    @exclusivity(unchecked) @usableFromInline final var upstream: ObserverEntry?

    /// The lifetime of a signal that is not derived; see ``lifetime``.
    @usableFromInline final let ownLifetime: Lifetime?

    /// The only observer of a derived signal, remembered by the drainer (`nil` for any other signal).
    ///
    /// Retained by the core and released in its `deinit`: reached through `Unmanaged`, the inline
    /// delivery reads it with no reference counting.
    @usableFromInline final let soleRecipient: Unmanaged<SoleRecipient>?

    /// Makes the core of a signal that accepts events itself, with a lock of its own.
    ///
    /// - Parameters:
    ///   - hasOutput: Whether a ``Signal`` object is made for it.
    ///   - isRun: Whether this is the signal of a producer run: it does not tear down for want of
    ///     observers until the run has started (``runStarted()``) and its interrupter is released
    ///     (``interrupterReleased()``), so a run whose signal nobody observes or keeps still runs its work.
    @inlinable
    init(hasOutput: Bool, isRun: Bool) {
        domain = LockedState(DeliveryState())
        list = ObserverList(hasOutput: hasOutput, isRun: isRun)
        ownLifetime = Lifetime(ender: CompositeDisposable())
        soleRecipient = nil
    }

    /// Makes the core of a signal derived from `upstream`: it shares `upstream`'s lock and delivery
    /// state, and its events are delivered inline within `upstream`'s deliveries.
    @inlinable
    init(derivedFrom upstream: SignalCoreBase) {
        domain = upstream.domain
        let soleRecipient = Unmanaged.passRetained(SoleRecipient())
        list = ObserverList(hasOutput: true, changes: soleRecipient)
        ownLifetime = nil
        self.soleRecipient = soleRecipient
    }

    deinit {
        soleRecipient?.release()
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

    /// Detaches `entry`; tears the signal down if it was the last observer of an unreachable signal.
    @usableFromInline
    final func remove(_ entry: ObserverEntry) {
        // The handler and anything a teardown drops are released after unlocking. Optional, so that a removal
        // that tears nothing down releases no empty array.
        var retired: ContiguousArray<ObserverEntry>?
        let (released, tearsDown) = domain.withLock { delivery -> (AnyObject?, Bool) in
            guard entry.isActive else { return (nil, false) }
            var released = list.remove(entry)
            if let handler = released, delivery.isDraining {
                // A callout may be running this handler unretained: the drainer releases it.
                delivery.parked.append(handler)
                released = nil
            }
            guard list.isUnreachable else { return (released, false) }
            retired = list.terminate()
            return (released, true)
        }
        withExtendedLifetime((released, retired)) {}
        if tearsDown {
            endLifetime()
        }
    }

    /// Called when the ``Signal`` object is released: with no observer left, nothing can ever observe
    /// the signal again, so it tears down, unless it is the signal of a producer run that is still
    /// starting or whose interrupter is kept.
    @usableFromInline
    final func outputReleased() {
        tearDownIfUnreachable { $0.hasOutput = false }
    }

    /// Called once the setup of a `startWithSignal` run has returned and its work has started (or did
    /// not, the setup having disposed the run): from then on the run tears down as soon as nobody
    /// observes its signal, holds its ``Signal`` object or holds its interrupter.
    @usableFromInline
    final func runStarted() {
        tearDownIfUnreachable { $0.isStarting = false }
    }

    /// Called when the interrupter a `startWithSignal` setup was given is released: a run that has
    /// started, with no observer and no ``Signal`` object left, tears down.
    @usableFromInline
    final func interrupterReleased() {
        tearDownIfUnreachable { $0.hasInterrupter = false }
    }

    /// Applies `change` to the list under the lock, then tears the signal down if it is unreachable.
    ///
    /// A teardown marks the signal terminated (late observers get `interrupted`) and ends its lifetime,
    /// which for a producer run interrupts its work; events still queued are delivered by the running
    /// drainer to nobody, and released by it.
    final func tearDownIfUnreachable(after change: (inout ObserverList) -> Void) {
        var retired: ContiguousArray<ObserverEntry> = []
        let tearsDown = domain.withLock { _ -> Bool in
            change(&list)
            guard list.isUnreachable else { return false }
            retired = list.terminate()
            return true
        }
        withExtendedLifetime(retired) {}
        if tearsDown {
            endLifetime()
        }
    }

    /// Whether the signal has terminated or is delivering its terminal event.
    @inlinable
    final var hasTerminated: Bool {
        domain.withLock { _ in !list.isAlive }
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
