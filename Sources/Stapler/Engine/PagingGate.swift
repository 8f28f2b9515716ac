import Reactive
import Synchronization

/// A one-word summary of what a no-op-able call could do, readable without the engine's lock.
///
/// `loadNextPage()`, `preload(index:)` and `loadNextPageIfNeeded()` are called far more often than they
/// act (for every displayed row, on every scroll event). The engine stores, under its lock after every
/// transition, whether a next-page load could start and how many items there are; the calls read it
/// first and return at once when they cannot act. A call that passes the gate still goes through the
/// state machine, which decides under the lock, so the gate only ever skips calls that would have been
/// no-ops at the moment it was read.
///
/// Reading costs one atomic load where `Synchronization.Atomic` is available (Linux, and Apple systems
/// from macOS 15 / iOS 18, through one dynamic call), and one lock round trip on older Apple systems,
/// so the platform floor stays at macOS 13 / iOS 16. This is the one place the package uses
/// `Synchronization`. Benchmarks/README.md has the figures (P2, P3, Linux, x86_64): a no-op call through the
/// engine's lock costs about 290 instructions and 40 ns now that the engine is specialised in the client's
/// module (it was 17,600 instructions and 1.4-2 µs while it ran as unspecialised generic code); through the
/// inline atomic, under 1 ns and 8 instructions. The dynamic call on Apple systems was not measured.
@usableFromInline
final class PagingGate: Sendable {
    #if canImport(Darwin)
        @usableFromInline let storage: any GateStorage
    #else
        // Linux always has `Atomic`: keep the word inline, with no dynamic dispatch.
        @usableFromInline let word = Atomic<Int>(0)
    #endif

    init() {
        #if canImport(Darwin)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                storage = AtomicGateStorage()
            } else {
                storage = LockedGateStorage()
            }
        #endif
    }

    /// The packed word: bits 0-2 say "can load next", "can retry next", "can load previous"; bits 3-32
    /// hold the item count and bits 33-62 the rows from the list's first page to its end (the count
    /// minus the rows prepended), each saturated at ``countLimit``.
    @inlinable
    var current: Int {
        #if canImport(Darwin)
            storage.load()
        #else
            word.load(ordering: .acquiring)
        #endif
    }

    /// The largest count the word holds; a larger one is stored as this and lets every preload through.
    @inlinable
    static var countLimit: Int { (1 << 30) - 1 }

    /// Records the machine's state; call under the engine's lock after each transition.
    @inlinable
    func update(canLoadNext: Bool, canRetryNext: Bool, canLoadPrevious: Bool, itemCount: Int, leadingCount: Int) {
        let flags = (canLoadNext ? 1 : 0) | (canRetryNext ? 2 : 0) | (canLoadPrevious ? 4 : 0)
        let count = min(itemCount, Self.countLimit)
        let fromOpening = min(max(itemCount - leadingCount, 0), Self.countLimit)
        let packed = fromOpening << 33 | count << 3 | flags
        #if canImport(Darwin)
            storage.store(packed)
        #else
            word.store(packed, ordering: .releasing)
        #endif
    }

    /// Whether `loadNextPage()` could start a load.
    @inlinable
    var allowsLoadNext: Bool {
        current & 1 != 0
    }

    /// Whether `loadPreviousPage()` could start a load.
    @inlinable
    var allowsLoadPrevious: Bool {
        current & 4 != 0
    }

    /// Whether `loadNextPage()` could start a load, or request a failed page again.
    @inlinable
    var allowsLoadNextOrRetry: Bool {
        current & 3 != 0
    }

    /// Whether `preload(index:)` could start a load for row `index` with `distance`.
    ///
    /// The index may come from a snapshot older than the engine's, which the engine moves down by the
    /// rows prepended since; the bottom test is made against the rows from the list's first page, so
    /// it lets through every index that such a move could bring within the distance.
    @inlinable
    func allowsPreload(index: Int, distance: Int) -> Bool {
        let word = current
        let count = (word >> 3) & Self.countLimit
        guard index >= 0, index < count || count == Self.countLimit else { return false }
        if word & 4 != 0 && index <= distance { return true }
        let fromOpening = (word >> 33) & Self.countLimit
        return word & 1 != 0 && (index >= fromOpening - 1 - distance || fromOpening == Self.countLimit)
    }
}

#if canImport(Darwin)
    @usableFromInline
    protocol GateStorage: AnyObject, Sendable {
        func load() -> Int
        func store(_ word: Int)
    }
#endif

#if canImport(Darwin) && canImport(Synchronization)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class AtomicGateStorage: GateStorage {
        private let word = Atomic<Int>(0)

        func load() -> Int { word.load(ordering: .acquiring) }

        func store(_ word: Int) { self.word.store(word, ordering: .releasing) }
    }
#endif

#if canImport(Darwin)
    final class LockedGateStorage: GateStorage {
        private let word = LockedState(0)

        func load() -> Int { word.withLock { $0 } }

        func store(_ word: Int) { self.word.withLock { $0 = word } }
    }
#endif
