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

    /// The slots: those in `head..<end` hold the queued elements, in order; every other slot is empty.
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline var end = 0

    @inlinable
    package var isEmpty: Bool { head == end }

    @inlinable
    package var count: Int { end - head }

    @inlinable
    package mutating func append(_ element: consuming Element) {
        if end < storage.count {
            storage[end] = consume element
        } else {
            storage.append(consume element)
        }
        end += 1
    }

    /// Moves the first element out.
    ///
    /// A queue that empties starts again at its first slot, and one more than half consumed, past its first
    /// 64 slots, moves its elements to the front; slots are never removed (emptying an array of slots through the
    /// standard library costs a generic range replacement each time).
    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < end else { return nil }
        let element = storage[head].take()
        head += 1
        if head == end {
            head = 0
            end = 0
        } else if head > 64 && head * 2 > end {
            for index in head..<end {
                storage[index - head] = storage[index].take()
            }
            end -= head
            head = 0
        }
        return element
    }

    @inlinable
    package mutating func removeAll() {
        storage.removeAll()
        head = 0
        end = 0
    }
}
