/// Dropped pages in a row whose keys are made of integers and each advance by one step: the first page
/// is kept, the others are recomputed.
@usableFromInline
struct PageRun: Sendable {
    /// How each of a page's integers advances from one page of the run to the next.
    @usableFromInline
    struct Step: Sendable, Equatable {
        @usableFromInline let key: KeyIntegers
        @usableFromInline let previousKey: KeyIntegers
        @usableFromInline let nextKey: KeyIntegers
        @usableFromInline let itemsBefore: Int

        @inlinable
        init(key: KeyIntegers, previousKey: KeyIntegers, nextKey: KeyIntegers, itemsBefore: Int) {
            self.key = key
            self.previousKey = previousKey
            self.nextKey = nextKey
            self.itemsBefore = itemsBefore
        }

        /// The step from `page` to `next`, if both have keys made of integers, the same fields present,
        /// and different keys; with no identities.
        @inlinable
        init?<Key>(from page: PageKeys<Key>, to next: PageKeys<Key>) {
            guard page.identities == nil, next.identities == nil, let first = KeyIntegers(page.key),
                let second = KeyIntegers(next.key), let key = second.minus(first), key != KeyIntegers(0, 0),
                let previousKey = Self.difference(page.previousKey, next.previousKey),
                let nextKey = Self.difference(page.nextKey, next.nextKey),
                let itemsBefore = Self.difference(page.itemsBefore, next.itemsBefore)
            else { return nil }
            self.init(key: key, previousKey: previousKey, nextKey: nextKey, itemsBefore: itemsBefore.first)
        }

        /// `to - from`: zero when both are absent, `nil` when only one is, or either is not made of
        /// integers, or the difference overflows.
        @inlinable
        static func difference<Key>(_ from: Key?, _ to: Key?) -> KeyIntegers? {
            switch (from, to) {
            case (nil, nil): return KeyIntegers(0, 0)
            case (let from?, let to?):
                guard let from = KeyIntegers(from), let to = KeyIntegers(to) else { return nil }
                return to.minus(from)
            default: return nil
            }
        }
    }

    /// The position of the run's first page in ``DroppedPages/pages``.
    @usableFromInline let start: Int
    /// How many pages the run stands for, its first included (at least 2).
    @usableFromInline var count: Int
    @usableFromInline let step: Step

    @inlinable
    init(start: Int, count: Int, step: Step) {
        self.start = start
        self.count = count
        self.step = step
    }

    /// The keys of the run's page `index` (0 is `first`).
    @inlinable
    func page<Key>(_ index: Int, after first: PageKeys<Key>) -> PageKeys<Key> {
        func advanced(_ key: Key, by step: KeyIntegers) -> Key {
            // A run is made only of pages whose keys are made of integers (``Step/init(from:to:)``).
            guard let integers = KeyIntegers(key),
                let advanced = integers.advanced(by: step, times: index).key(as: Key.self)
            else { fatalError("a run of dropped pages holds a key that is not made of integers") }
            return advanced
        }
        guard index > 0 else { return first }
        return PageKeys(
            key: advanced(first.key, by: step.key),
            previousKey: first.previousKey.map { advanced($0, by: step.previousKey) },
            nextKey: first.nextKey.map { advanced($0, by: step.nextKey) },
            itemsBefore: first.itemsBefore.map { $0 &+ step.itemsBefore &* index })
    }

    /// Whether the run's pages after its first (whose key is `first`) include the key `value`.
    @inlinable
    func holdsKey(_ value: KeyIntegers, first: KeyIntegers) -> Bool {
        // The step is not zero in at least one of the integers: that one gives the index, the other checks.
        let (distance, stride) =
            step.key.first != 0
            ? (value.first.subtractingReportingOverflow(first.first), step.key.first)
            : (value.second.subtractingReportingOverflow(first.second), step.key.second)
        let (remainder, remainderOverflows) = distance.partialValue.remainderReportingOverflow(dividingBy: stride)
        let (index, indexOverflows) = distance.partialValue.dividedReportingOverflow(by: stride)
        guard !distance.overflow, !remainderOverflows, !indexOverflows, remainder == 0, index > 0, index < count
        else { return false }
        return first.advanced(by: step.key, times: index) == value
    }

    /// Whether two pages' keys are the same (dropped pages have no identities).
    @inlinable
    static func same<Key: Equatable>(_ page: PageKeys<Key>, _ other: PageKeys<Key>) -> Bool {
        page.key == other.key && page.previousKey == other.previousKey && page.nextKey == other.nextKey
            && page.itemsBefore == other.itemsBefore
    }
}

/// The integers a key is made of, when it is an offset (`Int`) or a ``PageNumberKey``: what a run of
/// dropped pages steps.
@usableFromInline
struct KeyIntegers: Sendable, Equatable {
    @usableFromInline let first: Int
    @usableFromInline let second: Int

    @inlinable
    init(_ first: Int, _ second: Int) {
        self.first = first
        self.second = second
    }

    /// The integers of `key`, or `nil` for a key of another type (a cursor).
    @inlinable
    init?<Key>(_ key: Key) {
        if let offset = key as? Int {
            self.init(offset, 0)
        } else if let number = key as? PageNumberKey {
            self.init(number.page, number.itemsBefore)
        } else {
            return nil
        }
    }

    /// The key of type `Key` made of these integers, if `Key` is one that is made of integers.
    @inlinable
    func key<Key>(as type: Key.Type) -> Key? {
        if Key.self == Int.self { return first as? Key }
        if Key.self == PageNumberKey.self { return PageNumberKey(page: first, itemsBefore: second) as? Key }
        return nil
    }

    /// `self - other`, or `nil` if it overflows.
    @inlinable
    func minus(_ other: KeyIntegers) -> KeyIntegers? {
        let first = self.first.subtractingReportingOverflow(other.first)
        let second = self.second.subtractingReportingOverflow(other.second)
        guard !first.overflow, !second.overflow else { return nil }
        return KeyIntegers(first.partialValue, second.partialValue)
    }

    /// `self + step × times` (wrapping: the pages of a run exist, so their integers do not overflow).
    @inlinable
    func advanced(by step: KeyIntegers, times: Int) -> KeyIntegers {
        KeyIntegers(first &+ step.first &* times, second &+ step.second &* times)
    }
}
