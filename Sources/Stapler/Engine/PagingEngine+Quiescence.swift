import Reactive

// Quiescence: when a paginator waits for nothing. It is read from the engine's own state, never from
// what it published: a load is recorded in its phase in the transition that starts it, before the call
// that caused it returns, and the drain that delivers a publication is counted from the staging that
// starts it until every observer has been notified of everything queued. So "nothing in flight, no retry
// due, nothing being delivered" cannot be a stale reading of a state that a call just changed.

extension PagingEngine {
    /// Whether the machine waits for nothing, every publication it made has been delivered, and every
    /// awaiting task its outcomes resolved has been resumed; called under the state lock.
    @inlinable
    func isQuiescent(_ state: State) -> Bool {
        state.machine.inFlight == nil && state.machine.scheduledRetry == nil && state.delivery.isIdle
    }

    /// Returns when the engine is quiescent (see ``isQuiescent(_:_:)``), or when the calling task is
    /// cancelled; in the caller's turn, on the caller's executor, without suspending, if it is now.
    nonisolated(nonsending) func settled() async {
        await wait(untilQuiescent: true)
    }

    /// Returns after the next transition or the end of the next delivery, or at once if the engine is
    /// quiescent, or when the calling task is cancelled.
    ///
    /// What a test driver waits on while work it does not drive (an `async` source, another thread) may
    /// make progress.
    nonisolated(nonsending) package func progressed() async {
        await wait(untilQuiescent: false)
    }

    /// Waits for quiescence, or (`untilQuiescent` false) for the next step of work as well.
    nonisolated(nonsending) func wait(untilQuiescent: Bool) async {
        if state.withLock({ isQuiescent($0) }) { return }
        let id = state.withLock { state -> UInt64 in
            state.nextSettleWaiter &+= 1
            return state.nextSettleWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    // Checked with the registration, under the same lock as every change it reads: a
                    // transition or the end of a delivery that ends the work came before this check (and is
                    // seen by it) or comes after the registration (and sees the waiter, the watch being
                    // raised).
                    settleWatch.store(1)
                    let quiet = isQuiescent(state)
                    guard !quiet, !Task.isCancelled else {
                        if state.settleWaiters.isEmpty { settleWatch.store(0) }
                        return false
                    }
                    state.settleWaiters[id] = SettleWaiter(continuation: continuation, untilQuiescent: untilQuiescent)
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> SettleWaiter? in
                defer { if state.settleWaiters.isEmpty { settleWatch.store(0) } }
                return state.settleWaiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume()
        }
    }

    /// Resumes the callers of ``settled()`` if the engine is quiescent, and those of ``progressed()``; a
    /// transition and the end of a delivery call it when someone waits.
    @inlinable
    func resumeSettledIfQuiescent() {
        guard settleWatch.relaxedLoad() != 0 else { return }
        resumeSettled()
    }

    /// Resumes the callers of ``settled()`` if the engine is quiescent, and those of ``progressed()`` (kept
    /// out of line: it runs only while someone waits).
    @usableFromInline
    func resumeSettled() {
        let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.settleWaiters.isEmpty else {
                settleWatch.store(0)
                return []
            }
            let quiet = isQuiescent(state)
            var resumed: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in state.settleWaiters where quiet || !waiter.untilQuiescent {
                resumed.append(waiter.continuation)
                state.settleWaiters[id] = nil
            }
            if state.settleWaiters.isEmpty { settleWatch.store(0) }
            return resumed
        }
        for continuation in resumed { continuation.resume() }
    }

    /// What the engine still waits for: each load in flight with its key, the edge whose automatic retry
    /// is scheduled, and whether publications wait to be delivered.
    func pendingWork() -> PendingEngineWork {
        state.withLock { state in
            let undelivered = !state.delivery.isIdle
            let loads = PageDirection.allCases.compactMap { direction in
                state.machine[phase: direction].load.map { (direction, String(describing: $0.request.key)) }
            }
            return PendingEngineWork(
                loads: loads, retry: state.machine.scheduledRetry?.direction, undelivered: undelivered)
        }
    }
}

extension PagingEngine {
    /// Each edge whose load failed: its direction, a description of the key of its request, and its error
    /// (the source's own error when the source failed).
    func failedLoads() -> [FailedEngineLoad] {
        state.withLock { state in
            PageDirection.allCases.compactMap { direction in
                guard case .failed(let error, let request) = state.machine[phase: direction] else { return nil }
                return FailedEngineLoad(
                    direction: direction, key: String(describing: request.key), error: error.sourceError ?? error)
            }
        }
    }
}

/// A load that failed, as a test driver reports it.
package struct FailedEngineLoad: Sendable {
    /// The edge that failed.
    package let direction: PageDirection
    /// A description of the key of the failed request.
    package let key: String
    /// The source's error, or the paging error when the paginator itself refused the page.
    package let error: any Error
}

/// What a paginator still waits for, as a test driver reports it when the paginator does not settle.
package struct PendingEngineWork: Sendable {
    /// Each load in flight: its direction and a description of the key it asked for.
    package let loads: [(direction: PageDirection, key: String)]
    /// The edge whose automatic retry is scheduled, if any.
    package let retry: PageDirection?
    /// Whether publications were made and not yet delivered (or are being delivered).
    package let undelivered: Bool

    /// Whether nothing is pending.
    package var isEmpty: Bool { loads.isEmpty && retry == nil && !undelivered }
}

/// What a test driver reads and waits on to know that a paginator, or a list made from one, is settled.
package protocol QuiescenceProbe: AnyObject, Sendable {
    /// Returns when the paginator waits for nothing (see `Paginator.settled()`).
    nonisolated(nonsending) func settled() async
    /// Returns after the paginator's next step of work, or at once if it waits for nothing.
    nonisolated(nonsending) func progressed() async
    /// What the paginator still waits for.
    func pendingWork() -> PendingEngineWork
    /// Each edge whose load failed, with the key of its request and its error.
    func failedLoads() -> [FailedEngineLoad]
}

/// A caller of `settled()` or `progressed()` waiting on an engine.
@usableFromInline
struct SettleWaiter {
    @usableFromInline let continuation: CheckedContinuation<Void, Never>
    /// Whether it waits for quiescence; otherwise for the next step of work.
    @usableFromInline let untilQuiescent: Bool
}
