import Synchronization

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
/// before the lock is released; the drainer reads it, with no lock, just before the callout. That read
/// is the check "still attached" that a delivery under the lock makes: a `dispose()` that returned before
/// it is seen, and one that returns after it races with the callout exactly as it would after an
/// unlock. An unchanged version also means that the remembered handler is still alive (its entry keeps
/// it) and that it may receive this event: it was eligible for an earlier event of the domain, and the
/// domain delivers its events in the order it numbered them.
///
/// `handler` and `checkedVersion` belong to the domain's drainer: only the thread delivering reads or
/// writes them, and the role passes from thread to thread through the domain's lock.
///
/// Where `Synchronization.Atomic` is missing (Apple systems below macOS 15 / iOS 18) there is no
/// version, nothing is remembered, and every value goes the way of the lock.
@usableFromInline
final class SoleRecipient: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let version: (any ListVersion)?
    #else
        // Linux always has `Atomic`: keep the counter inline, with no dynamic dispatch.
        @usableFromInline let version = Atomic<UInt64>(0)
    #endif
    // Guarded by the domain's drainer role, not by a lock of their own: only the thread delivering reads
    // or writes them, and the role passes from thread to thread through the domain's lock.
    @exclusivity(unchecked) @usableFromInline var handler: Unmanaged<AnyObject>?
    @exclusivity(unchecked) @usableFromInline var checkedVersion: UInt64 = 0

    @usableFromInline
    init() {
        #if canImport(Darwin)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                version = AtomicListVersion()
            } else {
                version = nil
            }
        #endif
    }

    /// The remembered observer's handler, unretained, while the observer list is as it was then.
    ///
    /// `nil` once the list changed, or when nothing is remembered. Call on the drainer, with no lock held,
    /// just before the callout.
    @inlinable
    var current: Unmanaged<AnyObject>? {
        guard let handler else { return nil }
        #if canImport(Darwin)
            guard let version, version.load() == checkedVersion else { return nil }
        #else
            guard version.load(ordering: .acquiring) == checkedVersion else { return nil }
        #endif
        return handler
    }

    /// Records a change to the observer list or the phase, which forgets the remembered observer.
    ///
    /// Call under the domain's lock.
    @inlinable
    func listChanged() {
        #if canImport(Darwin)
            version?.increment()
        #else
            // Only ever written under the lock: a load and a store, with no read-modify-write.
            version.store(version.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        #endif
    }

    /// Remembers `handler` as the signal's only recipient, or forgets it (`nil`), as of the list's
    /// current version.
    ///
    /// Call on the drainer, under the domain's lock.
    @inlinable
    func remember(_ handler: Unmanaged<AnyObject>?) {
        #if canImport(Darwin)
            guard let version else { return }
            checkedVersion = version.load()
        #else
            checkedVersion = version.load(ordering: .relaxed)
        #endif
        self.handler = handler
    }
}

#if canImport(Darwin)
    /// The version counter of a ``SoleRecipient``, on Apple systems where `Atomic` may be missing.
    @usableFromInline
    protocol ListVersion: AnyObject, Sendable {
        func load() -> UInt64
        func increment()
    }
#endif

#if canImport(Darwin) && canImport(Synchronization)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class AtomicListVersion: ListVersion {
        private let word = Atomic<UInt64>(0)

        func load() -> UInt64 { word.load(ordering: .acquiring) }

        func increment() { word.store(word.load(ordering: .relaxed) &+ 1, ordering: .releasing) }
    }
#endif
