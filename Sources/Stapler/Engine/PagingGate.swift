import Reactive

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
/// from macOS 15 / iOS 18, through one dynamic call), and one lock round trip on older Apple systems, so
/// the platform floor stays at macOS 13 / iOS 16 (each word is an `AtomicWord`). Benchmarks/README.md has the figures (P2, P3, Linux,
/// x86_64): a no-op call through the engine's lock costs about 290 instructions and 40 ns now that the
/// engine is specialised in the client's module (it was 17,600 instructions and 1.4-2 µs while it ran as
/// unspecialised generic code); through the inline atomic, under 1 ns and 8 instructions. The dynamic
/// call on Apple systems was not measured.
@usableFromInline
final class PagingGate: Sendable {
    /// The packed summary of the latest transition, see ``current``.
    @usableFromInline let word = AtomicWord()
    /// Where the delivered snapshot's rows start, packed by ``place(leadingCount:listSerial:)``.
    @usableFromInline let delivered = AtomicWord()
    /// The row last passed to `preload(index:)`, counted from the list's first page and packed with its
    /// list by ``place(leadingCount:listSerial:)`` (0: none yet).
    @usableFromInline let shownRow = AtomicWord()
    /// The serial of the publication being delivered (see ``PublishedChanges``): how far the changes
    /// log may forget.
    @usableFromInline let deliveredSerial = AtomicWord()

    init() {}

    /// The bits of a list serial a packed word keeps: enough to tell the list of a recorded row from the
    /// lists shown around it.
    @inlinable
    static var serialMask: UInt64 { 0x3FFF_FFFF }

    /// A row count (from -2^31) and the low 30 bits of a list serial plus one, in one word (0 is none).
    @inlinable
    static func place(leadingCount: Int, listSerial: UInt64) -> Int {
        let count = min(max(leadingCount, Int(Int32.min)), Int(Int32.max)) - Int(Int32.min)
        return Int(truncatingIfNeeded: (listSerial & Self.serialMask) + 1) << 32 | count
    }

    /// The row count and the low list-serial bits of a word made by ``place(leadingCount:listSerial:)``.
    @inlinable
    static func unpack(_ word: Int) -> (count: Int, serialBits: UInt64)? {
        guard word != 0 else { return nil }
        return ((word & 0xFFFF_FFFF) + Int(Int32.min), UInt64(truncatingIfNeeded: word >> 32) &- 1)
    }

    /// Records the leading count, the list and the serial of the publication being delivered; the
    /// deliverer calls it as it publishes each one.
    @inlinable
    func recordDelivered(leadingCount: Int, listSerial: UInt64, serial: UInt64) {
        let word = Self.place(leadingCount: leadingCount, listSerial: listSerial)
        delivered.relaxedStore(word)
        deliveredSerial.relaxedStore(Int(truncatingIfNeeded: serial))
    }

    /// Records row `index` of the delivered snapshot as the row last passed to `preload(index:)`.
    ///
    /// It runs whatever the call then does: every row a list displays is recorded, not only those near
    /// an end, at the cost of a load and a store. `seen`, when given, is the leading count and list of an
    /// older snapshot the index refers to instead.
    @inlinable
    func recordShown(_ index: Int, seen: (leadingCount: Int, listSerial: UInt64)? = nil) {
        let row: Int
        let serialBits: UInt64
        if let seen {
            (row, serialBits) = (index - seen.leadingCount, seen.listSerial & Self.serialMask)
        } else {
            let word = delivered.relaxedLoad()
            let (leading, bits) = Self.unpack(word) ?? (0, 0)
            (row, serialBits) = (index - leading, bits)
        }
        let word = Self.place(leadingCount: row, listSerial: serialBits)
        shownRow.relaxedStore(word)
    }

    /// The row last passed to `preload(index:)`, counted from the first page of list `listSerial`, if any
    /// was passed for that list.
    @inlinable
    func lastShown(inList listSerial: UInt64) -> Int? {
        let word = shownRow.relaxedLoad()
        guard let (row, bits) = Self.unpack(word), bits == listSerial & Self.serialMask else { return nil }
        return row
    }

    /// The packed word: bits 0-2 hold the bottom edge's code and bits 3-5 the top edge's (0: a load can
    /// start, else why not, see ``reason(_:)``), bit 6 says "can retry next", bits 7-34 hold the item
    /// count and bits 35-62 the rows from the list's first page to its end (the count minus the rows
    /// prepended), each saturated at ``countLimit``.
    @inlinable
    var current: Int {
        word.load()
    }

    /// The largest count the word holds; a larger one is stored as this and lets every preload through.
    @inlinable
    static var countLimit: Int { (1 << 28) - 1 }

    /// The code of an edge: 0 when a load can start, else its reason's.
    @inlinable
    static func code(_ reason: IgnoredReason?) -> Int {
        switch reason {
        case nil: 0
        case .alreadyLoading?: 1
        case .endReached?: 2
        case .awaitingRetry?: 3
        case .notLoaded?: 4
        case .refreshing?: 5
        case .nothingToDo?: 6
        }
    }

    /// Records the machine's state; call under the engine's lock after each transition.
    @inlinable
    func update(
        append: IgnoredReason?, prepend: IgnoredReason?, canRetryNext: Bool, itemCount: Int, leadingCount: Int
    ) {
        let count = min(itemCount, Self.countLimit)
        let fromOpening = min(max(itemCount - leadingCount, 0), Self.countLimit)
        let packed =
            fromOpening << 35 | count << 7 | (canRetryNext ? 1 << 6 : 0) | Self.code(prepend) << 3 | Self.code(append)
        word.store(packed)
    }

    /// Why a load at `edge` cannot start, as of the latest transition, or `nil` if it can.
    @inlinable
    func reason(_ edge: PageDirection) -> IgnoredReason? {
        let code = edge == .prepend ? (current >> 3) & 7 : current & 7
        switch code {
        case 1: return .alreadyLoading
        case 2: return .endReached
        case 3: return .awaitingRetry
        case 4: return .notLoaded
        case 5: return .refreshing
        case 6: return .nothingToDo
        default: return nil
        }
    }

    /// Whether `loadNextPage()` could start a load.
    @inlinable
    var allowsLoadNext: Bool {
        current & 7 == 0
    }

    /// Whether `loadPreviousPage()` could start a load.
    @inlinable
    var allowsLoadPrevious: Bool {
        (current >> 3) & 7 == 0
    }

    /// Whether `loadNextPage()` could start a load, or request a failed page again.
    @inlinable
    var allowsLoadNextOrRetry: Bool {
        current & 7 == 0 || current & (1 << 6) != 0
    }

    /// Whether `preload(index:)` could start a load for row `index` with `distance`.
    ///
    /// The index may come from a snapshot older than the engine's, which the engine moves down by the
    /// rows prepended since; the bottom test is made against the rows from the list's first page, so
    /// it lets through every index that such a move could bring within the distance.
    @inlinable
    func allowsPreload(index: Int, distance: Int) -> Bool {
        let word = current
        let count = (word >> 7) & Self.countLimit
        guard index >= 0, index < count || count == Self.countLimit else { return false }
        if (word >> 3) & 7 == 0 && index <= distance { return true }
        let fromOpening = (word >> 35) & Self.countLimit
        return word & 7 == 0 && (index >= fromOpening - 1 - distance || fromOpening == Self.countLimit)
    }
}
