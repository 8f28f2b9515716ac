import Synchronization

/// One `Int` shared between threads: an atomic word where `Synchronization.Atomic` exists, a word behind a
/// ``LockedState`` where it does not (Apple systems below macOS 15 / iOS 18).
///
/// ``load()`` acquires and ``store(_:)`` releases; the relaxed forms promise only that the word is read or
/// written whole. There is no read-modify-write: each user writes its word from one role or under a lock
/// of its own, and reads it anywhere.
///
/// On Linux the atomic is stored inline, with no allocation and no dynamic call. On Apple systems the
/// choice is made at run time, through one dynamic call. Building with `-D STAPLER_ATOMICS_FALLBACK`
/// takes the locked path on every platform, so that the code older Apple systems run is built and tested
/// on Linux too: CI runs the whole test suite in that build.
@usableFromInline
package struct AtomicWord: ~Copyable, Sendable {
    #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
        @usableFromInline let storage: any WordStorage
    #else
        @usableFromInline let word: Atomic<Int>
    #endif

    /// Creates the word holding `initial`.
    @inlinable
    package init(_ initial: Int = 0) {
        #if STAPLER_ATOMICS_FALLBACK
            storage = LockedState(initial)
        #elseif canImport(Darwin)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                storage = AtomicWordStorage(initial)
            } else {
                storage = LockedState(initial)
            }
        #else
            word = Atomic(initial)
        #endif
    }

    /// Whether loads and stores are atomic instructions rather than lock round trips.
    @inlinable
    package var isLockFree: Bool {
        #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
            storage.isLockFree
        #else
            true
        #endif
    }

    /// The word, read after every write released before it.
    @inlinable
    package func load() -> Int {
        #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
            storage.load()
        #else
            word.load(ordering: .acquiring)
        #endif
    }

    /// The word, read whole, with no ordering of the accesses around it.
    @inlinable
    package func relaxedLoad() -> Int {
        #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
            storage.load()
        #else
            word.load(ordering: .relaxed)
        #endif
    }

    /// Writes `value`, releasing the writes before it to the next ``load()``.
    @inlinable
    package func store(_ value: Int) {
        #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
            storage.store(value)
        #else
            word.store(value, ordering: .releasing)
        #endif
    }

    /// Writes `value` whole, with no ordering of the accesses around it.
    @inlinable
    package func relaxedStore(_ value: Int) {
        #if canImport(Darwin) || STAPLER_ATOMICS_FALLBACK
            storage.store(value)
        #else
            word.store(value, ordering: .relaxed)
        #endif
    }
}

/// Where an ``AtomicWord`` keeps its value when the choice between an atomic and a lock is made at run time.
///
/// Loads acquire and stores release.
@usableFromInline
package protocol WordStorage: Sendable {
    /// Whether ``load()`` and ``store(_:)`` are atomic instructions rather than lock round trips.
    var isLockFree: Bool { get }
    /// The stored word.
    func load() -> Int
    /// Replaces the stored word.
    func store(_ value: Int)
}

extension LockedState: WordStorage where State == Int {
    /// `false`: every access is a lock round trip.
    @inlinable
    package var isLockFree: Bool { false }

    /// The word, read under the lock.
    @inlinable
    package func load() -> Int { withLock { $0 } }

    /// Replaces the word under the lock.
    @inlinable
    package func store(_ value: Int) { withLock { $0 = value } }
}

/// The atomic storage of an ``AtomicWord`` on Apple systems, boxed so that the word's own layout does not
/// depend on the system's version.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class AtomicWordStorage: WordStorage {
    @usableFromInline let word: Atomic<Int>

    @usableFromInline
    init(_ initial: Int) { word = Atomic(initial) }

    @usableFromInline
    var isLockFree: Bool { true }

    @usableFromInline
    func load() -> Int { word.load(ordering: .acquiring) }

    @usableFromInline
    func store(_ value: Int) { word.store(value, ordering: .releasing) }
}
