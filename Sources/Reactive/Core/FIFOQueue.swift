/// A first-in, first-out queue with O(1) amortised `append` and `popFirst`.
///
/// Its storage is kept when it empties, so a signal that queues reentrant events now and then does
/// not allocate again on every burst. `popFirst()` moves the element out: the queue keeps no reference
/// to it, so its owner decides where the element is released (a signal releases events, whose deinit
/// may be user code, only after unlocking).
@usableFromInline
package struct FIFOQueue<Element> {
    @inlinable
    package init() {}

    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0

    @inlinable
    package var isEmpty: Bool { head == storage.count }

    @inlinable
    package var count: Int { storage.count - head }

    @inlinable
    package mutating func append(_ element: consuming Element) {
        storage.append(consume element)
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head].take()
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

    @inlinable
    package mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
