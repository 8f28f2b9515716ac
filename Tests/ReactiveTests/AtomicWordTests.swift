import Dispatch
import Testing

@testable import Reactive

/// A payload handed from one thread to another by an ``AtomicWord``'s store and load alone.
private final class HandedOver: @unchecked Sendable {
    // Guarded by the word of the test that uses it: written before its releasing store, read after an
    // acquiring load that saw that store.
    var payload = 0
}

@Suite("AtomicWord")
struct AtomicWordTests {
    /// Whether this build keeps its words behind a lock (`-D STAPLER_ATOMICS_FALLBACK`).
    static var buildUsesTheFallback: Bool {
        #if STAPLER_ATOMICS_FALLBACK
            true
        #else
            false
        #endif
    }

    @Test("a word reads back what was stored, through both the ordered and the relaxed forms")
    func readsBackWhatWasStored() {
        let word = AtomicWord(7)
        #expect(word.load() == 7)
        for value in [0, 1, -1, Int.min, Int.max, 0x5555_5555_5555_5555] {
            word.store(value)
            #expect(word.load() == value)
            #expect(word.relaxedLoad() == value)
            word.relaxedStore(~value)
            #expect(word.load() == ~value)
        }
    }

    @Test("an atomic on Linux, a word behind a lock in the fallback build; what relies on it follows")
    func fallbackBuildTakesTheLockedPath() {
        let word = AtomicWord()
        #expect(word.isLockFree == !Self.buildUsesTheFallback)
        // A derived signal's only observer is remembered only where the version is lock-free: the
        // fallback sends every value the way of the lock.
        let recipient = SoleRecipient()
        let handler = AnyDisposable()
        recipient.remember(Unmanaged.passUnretained(handler))
        #expect((recipient.current != nil) == word.isLockFree)
        recipient.listChanged()
        #expect(recipient.current == nil, "a change of the list forgets the observer")
        // A constant producer's run disposable records its end with either storage.
        let run = FlagDisposable()
        #expect(!run.isDisposed)
        run.dispose()
        #expect(run.isDisposed)
    }

    @Test("a releasing store hands what was written before it to the thread whose acquiring load sees it")
    func storeReleasesToLoad() {
        for _ in 0..<200 {
            let word = AtomicWord()
            let handed = HandedOver()
            let seen = LockedState(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    handed.payload = 42
                    word.store(1)
                } else {
                    while word.load() == 0 {}
                    seen.withLock { $0 = handed.payload }
                }
            }
            #expect(seen.withLock { $0 } == 42)
        }
    }
}
