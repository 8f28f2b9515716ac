/// An immutable snapshot of the loaded items: a random-access collection over shared page storage.
///
/// Snapshots share their pages, so keeping any number of them costs nothing beyond the items, and a
/// snapshot never changes after it is made: later pages, refreshes and clears produce new snapshots.
///
/// ```swift
/// paginator.items.producer.startWithValues { items in
///     print(items.count, items.first as Any)
/// }
/// ```
///
/// - Complexity: `count` and `isEmpty` are O(1); subscripting by index is O(log pages); iterating is
///   O(1) per element.
public struct PagedItems<Item: Sendable>: RandomAccessCollection, Sendable {
    @usableFromInline let chain: PageChain<Item>?

    /// The number of pages this snapshot holds (a page whose items were all dropped counts too).
    public let pageCount: Int

    /// The number of items in the snapshot.
    public let count: Int

    /// An empty snapshot.
    @inlinable
    public init() {
        chain = nil
        pageCount = 0
        count = 0
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
    init(chain: PageChain<Item>, pageCount: Int, count: Int) {
        self.chain = chain
        self.pageCount = pageCount
        self.count = count
    }

    /// The position of the first item: always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The position after the last item: ``count``.
    @inlinable
    public var endIndex: Int { count }

    /// The item at `position`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log pages).
    @inlinable
    public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < count, "PagedItems index \(position) out of range 0..<\(count)")
        let chain = chain.unsafelyUnwrapped
        var low = 0
        var high = pageCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chain.chunk(at: middle).start <= position {
                low = middle
            } else {
                high = middle - 1
            }
        }
        let chunk = chain.chunk(at: low)
        return chunk.items[position - chunk.start]
    }

    /// The items of page `index` of this snapshot.
    ///
    /// - Parameter index: A page index in `0..<pageCount`.
    /// - Returns: The items that page contributed, in order.
    @inlinable
    public func items(ofPage index: Int) -> ContiguousArray<Item> {
        precondition(index >= 0 && index < pageCount, "page index \(index) out of range 0..<\(pageCount)")
        return chain.unsafelyUnwrapped.chunk(at: index).items
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
                guard page < items.pageCount, let chain = items.chain else { return nil }
                chunk = chain.chunk(at: page).items
                page += 1
                offset = 0
            }
            defer { offset += 1 }
            return chunk[offset]
        }
    }
}

extension PagedItems {
    /// A snapshot with `items` appended as one more page.
    ///
    /// Appends to the shared storage in place when this snapshot is the newest one of its storage;
    /// otherwise (an older snapshot) it copies its pages into new storage first.
    ///
    /// - Complexity: O(`items.count`) for the newest snapshot.
    @inlinable
    func appending(_ items: ContiguousArray<Item>) -> PagedItems {
        let chain: PageChain<Item>
        if let existing = self.chain, existing.pageCount == pageCount {
            chain = existing
        } else {
            chain = PageChain()
            for page in 0..<pageCount {
                let chunk = self.chain.unsafelyUnwrapped.chunk(at: page)
                chain.append(chunk.items, start: chunk.start)
            }
        }
        chain.append(items, start: count)
        return PagedItems(chain: chain, pageCount: pageCount + 1, count: count + items.count)
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
