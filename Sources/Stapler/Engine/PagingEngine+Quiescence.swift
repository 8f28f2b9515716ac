import Reactive

// Quiescence: when a paginator waits for nothing. It is read from the engine's own state, never from
// what it published: a load is recorded in its slot in the transition that starts it, before the call
// that caused it returns, and a publication stays in the outbox until the flusher has notified every
// observer of it. So "nothing in flight, no retry due, the outbox empty and no flush running" cannot be
// a stale reading of a state that a call just changed.

extension PagingEngine {
    /// Whether the machine waits for nothing and every publication it made has been delivered; called with
    /// both locks held (the state's, then the outbox's).
    @inlinable
    func isQuiescent(_ machine: Machine, _ box: Outbox) -> Bool {
        machine.inFlight == nil && machine.scheduledRetry == nil && box.deliveries.isEmpty && !box.isFlushing
    }

    /// Returns when the engine is quiescent (see ``isQuiescent(_:_:)``), or when the calling task is
    /// cancelled; in the caller's turn, on the caller's executor, without suspending, if it is now.
    nonisolated(nonsending) func settled() async {
        if state.withLock({ state in outbox.withLock { isQuiescent(state.machine, $0) } }) { return }
        let id = state.withLock { state -> UInt64 in
            state.nextSettleWaiter &+= 1
            return state.nextSettleWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    // Checked with the registration, under the same locks as every change it reads: a change
                    // that ends the work either came before (and is seen here) or comes after and sees the
                    // waiter.
                    let quiet = outbox.withLock { isQuiescent(state.machine, $0) }
                    guard !quiet, !Task.isCancelled else { return false }
                    state.settleWaiters[id] = continuation
                    settleWatch.store(1)
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.settleWaiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Resumes the callers of ``settled()`` if the engine is quiescent; a transition and the end of a
    /// flush call it when someone waits.
    @inlinable
    func resumeSettledIfQuiescent() {
        guard settleWatch.relaxedLoad() != 0 else { return }
        resumeSettled()
    }

    /// Resumes the callers of ``settled()`` if the engine is quiescent (kept out of line: it runs only while
    /// someone waits).
    @usableFromInline
    func resumeSettled() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.settleWaiters.isEmpty, outbox.withLock({ isQuiescent(state.machine, $0) }) else { return [] }
            defer {
                state.settleWaiters.removeAll()
                settleWatch.store(0)
            }
            return Array(state.settleWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// What the engine still waits for: each load in flight with its key, the edge whose automatic retry
    /// is scheduled, and whether publications wait to be delivered.
    package func pendingWork() -> PendingEngineWork<Key> {
        state.withLock { state in
            let undelivered = outbox.withLock { !$0.deliveries.isEmpty || $0.isFlushing }
            let loads = PageDirection.allCases.compactMap { direction in
                state.machine[slot: direction].load.map { (direction, $0.request.key) }
            }
            return PendingEngineWork(
                loads: loads, retry: state.machine.scheduledRetry?.direction, undelivered: undelivered)
        }
    }
}

/// What a paginator still waits for, as the test kit reports it when it does not settle.
package struct PendingEngineWork<Key: Sendable>: Sendable {
    /// Each load in flight: its direction and the key it asked for.
    package let loads: [(direction: PageDirection, key: Key)]
    /// The edge whose automatic retry is scheduled, if any.
    package let retry: PageDirection?
    /// Whether publications were made and not yet delivered (or are being delivered).
    package let undelivered: Bool

    /// Whether nothing is pending.
    package var isEmpty: Bool { loads.isEmpty && retry == nil && !undelivered }
}
