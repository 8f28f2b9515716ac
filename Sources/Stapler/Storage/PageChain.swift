/// Append-only storage of pages whose existing slots never move, shared by every snapshot.
///
/// Pages live in blocks of doubling capacity (1, 2, 4, ... pages); the directory of blocks has a fixed
/// size, so appending never moves or copies a page that is already stored. A snapshot records how many
/// pages it sees and reads only those slots, which were fully written before the snapshot was published,
/// so readers and the single appender never touch the same memory. Appending a page costs O(page size),
/// whatever snapshots are kept; memory is the items plus a small constant per page.
///
/// Only the newest snapshot of a chain may append (``PagingEngine`` holds it under its lock); an older
/// snapshot that needs to grow moves its chain's pages into its tree first (see
/// ``PagedItems/appending(_:)``). A snapshot uses one chain for the pages appended at its bottom and
/// one for those prepended at its top; a chunk's ``Chunk/start`` counts the items of the chain's earlier
/// chunks, away from the middle of the list.
@usableFromInline
final class PageChain<Item: Sendable>: @unchecked Sendable {
    // Guarded by the publication rule above: slot `i` is written once, before any snapshot that
    // counts it is published through a lock, and never written again.
    @usableFromInline let directory: UnsafeMutablePointer<UnsafeMutablePointer<Chunk>?>
    // Guarded by the appender's lock or role (the engine's state lock; the engine's deliverer for a
    // transformed list's chains): how many pages are stored. Unchecked: that lock or role, not a run-time exclusivity
    // check, is what keeps accesses apart.
    @exclusivity(unchecked) @usableFromInline var pageCount = 0

    @inlinable
    static var maximumBlocks: Int { 56 }

    @usableFromInline
    struct Chunk {
        @usableFromInline let items: ContiguousArray<Item>
        /// The index of the chunk's first item in the whole list.
        @usableFromInline let start: Int

        @inlinable
        init(items: ContiguousArray<Item>, start: Int) {
            self.items = items
            self.start = start
        }
    }

    @inlinable
    init() {
        directory = .allocate(capacity: Self.maximumBlocks)
        directory.initialize(repeating: nil, count: Self.maximumBlocks)
    }

    deinit {
        var remaining = pageCount
        for block in 0..<Self.maximumBlocks where remaining > 0 {
            let capacity = 1 << block
            let used = min(capacity, remaining)
            if let pointer = directory[block] {
                pointer.deinitialize(count: used)
                pointer.deallocate()
            }
            remaining -= used
        }
        directory.deallocate()
    }

    /// The block and slot of page `index`: page `i` lives in block `log2(i + 1)`.
    @inlinable @inline(__always)
    static func position(of index: Int) -> (block: Int, slot: Int) {
        let shifted = UInt(index + 1)
        let block = UInt.bitWidth - 1 - shifted.leadingZeroBitCount
        return (block, Int(shifted) - (1 << block))
    }

    /// The chunk of page `index`, which must be below a published snapshot's page count.
    @inlinable @inline(__always)
    func chunk(at index: Int) -> Chunk {
        let (block, slot) = Self.position(of: index)
        return directory[block].unsafelyUnwrapped[slot]
    }

    /// The slot of the chunk holding item `index` of the chain (counted from its first chunk), among
    /// the first `pages` chunks.
    ///
    /// - Complexity: O(log pages).
    @inlinable
    func slot(holding index: Int, below pages: Int) -> Int {
        var low = 0
        var high = pages - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunk(at: middle).start <= index {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    /// Stores `items` as the next page, starting at item index `start`.
    ///
    /// - Complexity: O(`items.count`), plus one block allocation at each power of two pages.
    @inlinable
    func append(_ items: ContiguousArray<Item>, start: Int) {
        let (block, slot) = Self.position(of: pageCount)
        if slot == 0 {
            directory[block] = .allocate(capacity: 1 << block)
        }
        (directory[block].unsafelyUnwrapped + slot).initialize(to: Chunk(items: items, start: start))
        pageCount += 1
    }
}
