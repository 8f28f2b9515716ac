/// A first-in, first-out queue with O(1) amortised `append` and `popFirst`.
///
/// Its storage is kept when it empties, so a signal that queues reentrant events now and then does
/// not allocate again on every burst.
package struct FIFOQueue<Element> {
    package init() {}

    private var storage: [Element] = []
    private var head = 0

    package var isEmpty: Bool { head == storage.count }

    package var count: Int { storage.count - head }

    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    package mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
