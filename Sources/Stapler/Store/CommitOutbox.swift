import Reactive

/// Sends a store's change notifications in commit order, outside the store's locks.
///
/// A committing thread enqueues its change while it still holds the store's write lock (so the queue is
/// in commit order), then calls ``drain()`` after unlocking. One thread drains at a time; a change
/// committed meanwhile, on another thread or by an observer reentering the store, is delivered by the
/// draining thread after the current one. No lock is held while an observer runs.
package final class CommitOutbox: Sendable {
    private struct State {
        var queue: [StoreChange] = []
        var head = 0
        var draining = false
    }

    // Guarded by its own lock (`LockedState`).
    private let state = LockedState(State())
    private let input: Signal<StoreChange, Never>.Observer
    /// The notifications.
    package let changes: Signal<StoreChange, Never>

    package init() {
        (changes, input) = Signal<StoreChange, Never>.pipe()
    }

    /// Queues `change`; call with the store's write lock held.
    package func enqueue(_ change: StoreChange) {
        state.withLock { $0.queue.append(change) }
    }

    /// Delivers the queued changes unless another thread is delivering them; call after unlocking.
    package func drain() {
        var isDrainer = false
        while true {
            let next: StoreChange? = state.withLock { state in
                if !isDrainer {
                    guard !state.draining else { return nil }
                    state.draining = true
                    isDrainer = true
                }
                guard state.head < state.queue.count else {
                    state.draining = false
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                    return nil
                }
                state.head += 1
                return state.queue[state.head - 1]
            }
            guard let change = next else { return }
            input.send(value: change)
        }
    }
}
