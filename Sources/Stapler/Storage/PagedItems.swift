/// An immutable snapshot of the loaded items: a random-access collection over shared page storage.
///
/// Snapshots share their pages, so keeping any number of them costs little beyond the items, and a
/// snapshot never changes after it is made: later pages, edits, refreshes and clears produce new
/// snapshots.
///
/// ```swift
/// paginator.items.producer.startWithValues { items in
///     print(items.count, items.first as Any)
/// }
/// ```
///
/// The storage has three parts: pages prepended at the top (an append-only chain, newest page
/// last), a persistent tree of pages in the middle, and pages appended at the bottom (another
/// append-only chain). Adding a page at either end of the newest snapshot writes one slot of a chain;
/// an edit or a dropped page first moves the chains' pages into the tree (each page moves once), then
/// copies one path of the tree.
///
/// - Complexity: `count` and `isEmpty` are O(1); subscripting by index is O(log pages); iterating is
///   O(1) per element, amortised.
public struct PagedItems<Item: Sendable>: RandomAccessCollection, Sendable {
    /// Pages prepended at the top, the one nearest the middle first.
    @usableFromInline let head: PageChain<Item>?
    @usableFromInline let headPages: Int
    @usableFromInline let headCount: Int
    /// The middle pages.
    @usableFromInline let body: PageTree<Item>?
    /// Pages appended at the bottom, in order.
    @usableFromInline let tail: PageChain<Item>?
    @usableFromInline let tailPages: Int
    @usableFromInline let tailCount: Int

    /// The number of pages this snapshot holds (a page whose items were all dropped or removed counts
    /// too).
    public let pageCount: Int

    /// The number of items in the snapshot.
    public let count: Int

    /// An empty snapshot.
    @inlinable
    public init() {
        self.init(head: nil, headPages: 0, headCount: 0, body: nil, tail: nil, tailPages: 0, tailCount: 0)
    }

    /// A snapshot holding `items` as one page (for previews, tests and placeholders).
    ///
    /// - Parameter items: The items, in order.
    /// - Complexity: O(`items.count`).
    @inlinable
    public init<Items: Sequence>(_ items: Items) where Items.Element == Item {
        self = PagedItems().appending(ContiguousArray(items))
    }

    @inlinable
    init(
        head: PageChain<Item>?, headPages: Int, headCount: Int, body: PageTree<Item>?, tail: PageChain<Item>?,
        tailPages: Int, tailCount: Int
    ) {
        self.head = head
        self.headPages = headPages
        self.headCount = headCount
        self.body = body
        self.tail = tail
        self.tailPages = tailPages
        self.tailCount = tailCount
        pageCount = headPages + (body?.pageCount ?? 0) + tailPages
        count = headCount + (body?.count ?? 0) + tailCount
    }

    /// The position of the first item: always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The position after the last item: ``count``.
    @inlinable
    public var endIndex: Int { count }

    /// The number of items in the middle part.
    @inlinable
    var bodyCount: Int { body?.count ?? 0 }

    /// The number of pages in the middle part.
    @inlinable
    var bodyPages: Int { body?.pageCount ?? 0 }

    /// The item at `position`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log pages).
    @inlinable
    public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < count, "PagedItems index \(position) out of range 0..<\(count)")
        let located = locate(item: position)
        return located.items[position - located.start]
    }

    /// The items of page `index` of this snapshot.
    ///
    /// - Parameter index: A page index in `0..<pageCount`.
    /// - Returns: The items that page holds, in order.
    /// - Complexity: O(log pages).
    @inlinable
    public func items(ofPage index: Int) -> ContiguousArray<Item> {
        precondition(index >= 0 && index < pageCount, "page index \(index) out of range 0..<\(pageCount)")
        return page(at: index).items
    }

    /// Page `index` and the index of its first item.
    @inlinable
    func page(at index: Int) -> (items: ContiguousArray<Item>, start: Int) {
        if index < headPages {
            // Head page `j` (j = 0 nearest the middle) is list page `headPages - 1 - j`.
            let chunk = head.unsafelyUnwrapped.chunk(at: headPages - 1 - index)
            return (chunk.items, headCount - chunk.start - chunk.items.count)
        }
        let inBody = index - headPages
        if inBody < bodyPages {
            let (items, start) = body.unsafelyUnwrapped.page(at: inBody)
            return (items, headCount + start)
        }
        let chunk = tail.unsafelyUnwrapped.chunk(at: inBody - bodyPages)
        return (chunk.items, headCount + bodyCount + chunk.start)
    }

    /// The page holding item `position`: its page index, its items and the index of its first item.
    ///
    /// - Complexity: O(log pages).
    @inlinable
    func locate(item position: Int) -> (page: Int, items: ContiguousArray<Item>, start: Int) {
        if position < headCount {
            // Head chunks count their starts upwards from the middle.
            let fromMiddle = headCount - 1 - position
            let slot = head.unsafelyUnwrapped.slot(holding: fromMiddle, below: headPages)
            let chunk = head.unsafelyUnwrapped.chunk(at: slot)
            return (headPages - 1 - slot, chunk.items, headCount - chunk.start - chunk.items.count)
        }
        let inBody = position - headCount
        if inBody < bodyCount {
            let (page, items, start) = body.unsafelyUnwrapped.locate(item: inBody)
            return (headPages + page, items, headCount + start)
        }
        let inTail = inBody - bodyCount
        let slot = tail.unsafelyUnwrapped.slot(holding: inTail, below: tailPages)
        let chunk = tail.unsafelyUnwrapped.chunk(at: slot)
        return (headPages + bodyPages + slot, chunk.items, headCount + bodyCount + chunk.start)
    }

    /// Whether both snapshots are the same value of the same storage (no item compared).
    @inlinable
    func isIdentical(to other: PagedItems) -> Bool {
        if count == 0 && other.count == 0 { return true }
        return count == other.count && pageCount == other.pageCount && headPages == other.headPages
            && tailPages == other.tailPages && head === other.head && body === other.body && tail === other.tail
    }

    /// The index of the first item that satisfies `predicate`, searching page by page.
    ///
    /// - Parameter predicate: Whether an item is the one sought.
    /// - Returns: Its index, or `nil` if no item satisfies it.
    /// - Complexity: O(`count`), with no per-item search of the storage.
    @inlinable
    public func firstIndex(where predicate: (Item) throws -> Bool) rethrows -> Int? {
        var index = 0
        for item in self {
            if try predicate(item) { return index }
            index += 1
        }
        return nil
    }

    /// Iterates page by page, without searching.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(items: self)
    }

    /// Iterates the items of a snapshot in order, page by page.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let items: PagedItems
        @usableFromInline var page = 0
        @usableFromInline var chunk: ContiguousArray<Item> = []
        @usableFromInline var offset = 0

        @inlinable
        init(items: PagedItems) {
            self.items = items
        }

        /// The next item, or `nil` after the last one.
        @inlinable
        public mutating func next() -> Item? {
            while offset == chunk.count {
                guard page < items.pageCount else { return nil }
                chunk = items.page(at: page).items
                page += 1
                offset = 0
            }
            defer { offset += 1 }
            return chunk[offset]
        }
    }
}

extension PagedItems.Iterator: Sendable {}

extension PagedItems: Equatable where Item: Equatable {
    /// Whether both snapshots hold equal items in the same order.
    @inlinable
    public static func == (lhs: PagedItems, rhs: PagedItems) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension PagedItems: ExpressibleByArrayLiteral {
    /// A snapshot holding the literal's items as one page.
    ///
    /// - Parameter elements: The items, in order.
    public init(arrayLiteral elements: Item...) {
        self.init(elements)
    }
}

extension PagedItems: CustomStringConvertible {
    /// The items, as an array would print them.
    public var description: String {
        Array(self).description
    }
}
