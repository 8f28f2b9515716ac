/// A first-in, first-out queue that one thread at a time drains: whoever offers an element to an idle
/// queue becomes its drainer and delivers that element itself; every other offer, from a reentrant call
/// or another thread, queues the element for that drainer and returns at once.
///
/// It is a value type with no lock of its own: its owner keeps it under a lock and calls it there, with
/// the flag that says whether a drainer is running. The flag is the owner's, so that others can read it
/// under the same lock (the signals derived from a signal share its lock and its flag, and park detached
/// handlers while it is set). The drainer delivers with the lock released, then asks ``next(isDraining:)``
/// for more, under the lock again, until the queue is empty; that call also clears the flag, so an element
/// is never left behind with no drainer. Elements leave the queue by move, so the owner decides where
/// they are released (after unlocking, when releasing one can run user code).
@usableFromInline
package struct DrainQueue<Element> {
    @usableFromInline var waiting = FIFOQueue<Element>()

    /// Creates an empty queue.
    @inlinable
    package init() {}

    /// Whether no element waits for the drainer.
    @inlinable
    package var isEmpty: Bool { waiting.isEmpty }

    /// Offers an element to the queue.
    ///
    /// - Parameters:
    ///   - element: Made only if it has to wait.
    ///   - isDraining: Whether a drainer is running; set if the caller becomes the drainer.
    /// - Returns: `true` if no drainer was running: the caller is now the drainer and delivers the element
    ///   itself, first. `false` if one is running: the element waits for it.
    @inlinable
    package mutating func offer(_ element: @autoclosure () -> Element, isDraining: inout Bool) -> Bool {
        guard !isDraining else {
            waiting.append(element())
            return false
        }
        isDraining = true
        return true
    }

    /// The drainer's next element; `nil` when none is left, which also clears `isDraining` (the caller
    /// stops being the drainer).
    ///
    /// Call only as the drainer.
    @inlinable
    package mutating func next(isDraining: inout Bool) -> Element? {
        guard !waiting.isEmpty else {
            isDraining = false
            return nil
        }
        return waiting.popFirst()
    }

    /// Takes every waiting element out of the queue; the drainer, if any, keeps running.
    ///
    /// - Returns: The elements, for the owner to release where it may.
    @inlinable
    package mutating func removeAll() -> FIFOQueue<Element> {
        defer { waiting = FIFOQueue() }
        return waiting
    }
}
