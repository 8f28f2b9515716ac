/// The only observer of a derived signal, remembered so that a value reaches it with no lock taken.
///
/// A derived signal's deliveries run inline, on its domain's drainer (see
/// `SignalCore.deliverInline(_:)`). Found under the lock, each value costs one lock round trip per stage
/// of a chain such as `map`, `filter`, `map`. Most derived signals have exactly one observer, and it
/// rarely changes: the drainer remembers it, with the version of the observer list it saw, and while the
/// version is unchanged the next value goes straight to it.
///
/// The version is an atomic counter. Every change to the signal's observer list or phase (an observer
/// attaching or detaching, the signal terminating or tearing down) bumps it under the domain's lock,
/// before the lock is released: `ObserverList` bumps it itself whenever its entries or its phase are
/// set, so no caller can forget to; the drainer reads it, with no lock, just before the callout. That read
/// is the check "still attached" that a delivery under the lock makes: a `dispose()` that returned before
/// it is seen, and one that returns after it races with the callout exactly as it would after an
/// unlock. An unchanged version also means that the remembered handler is still alive (its entry keeps
/// it) and that it may receive this event: it was eligible for an earlier event of the domain, and the
/// domain delivers its events in the order it numbered them.
///
/// `handler` and `checkedVersion` belong to the domain's drainer: only the thread delivering reads or
/// writes them, and the role passes from thread to thread through the domain's lock.
///
/// Where `Synchronization.Atomic` is missing (Apple systems below macOS 15 / iOS 18, and the
/// `STAPLER_ATOMICS_FALLBACK` build) the version is a word behind a lock: nothing is remembered, and
/// every value goes the way of the lock.
@usableFromInline
final class SoleRecipient: @unchecked Sendable {
    /// Bumped under the domain's lock at every change of the observer list or phase, wrapping.
    @usableFromInline let version = AtomicWord()
    // Guarded by the domain's drainer role, not by a lock of their own: only the thread delivering reads
    // or writes them, and the role passes from thread to thread through the domain's lock.
    @exclusivity(unchecked) @usableFromInline var handler: Unmanaged<AnyObject>?
    @exclusivity(unchecked) @usableFromInline var checkedVersion = 0

    @usableFromInline
    init() {}

    /// The remembered observer's handler, unretained, while the observer list is as it was then.
    ///
    /// `nil` once the list changed, or when nothing is remembered. Call on the drainer, with no lock held,
    /// just before the callout.
    @inlinable
    var current: Unmanaged<AnyObject>? {
        guard let handler, version.load() == checkedVersion else { return nil }
        return handler
    }

    /// Records a change to the observer list or the phase, which forgets the remembered observer.
    ///
    /// Call under the domain's lock.
    @inlinable
    func listChanged() {
        // Only ever written under the lock: a load and a store, with no read-modify-write.
        version.store(version.relaxedLoad() &+ 1)
    }

    /// Remembers `handler` as the signal's only recipient, or forgets it (`nil`), as of the list's
    /// current version; remembers nothing where the version is not lock-free.
    ///
    /// Call on the drainer, under the domain's lock.
    @inlinable
    func remember(_ handler: Unmanaged<AnyObject>?) {
        guard version.isLockFree else { return }
        checkedVersion = version.relaxedLoad()
        self.handler = handler
    }
}
