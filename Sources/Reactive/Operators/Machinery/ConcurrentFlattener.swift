/// Runs up to `limit` inner producers at once, queueing the others in arrival order.
///
/// Values are forwarded without a shared decision: an inner run's completion is processed after its own
/// values were accepted, so the final completion always follows every value. Runs are started by one
/// thread at a time from a ready queue (`isStarting`), which turns "a run completes at once and lets the
/// next one start" into a loop instead of a recursion.
final class ConcurrentFlattener<Inner: Sendable, Error: Swift.Error>: Sendable {
    typealias Producer = SignalProducer<Inner, Error>

    private let input: OperatorInput<Inner, Error>
    /// The output's lifetime: every inner run is added to it while it runs.
    private let lifetime: Lifetime
    private let limit: Int
    // Guarded by its lock.
    private let state = LockedState(State())

    private struct State {
        /// Producers beyond the limit, in arrival order.
        var waiting = FIFOQueue<Producer>()
        /// Producers admitted under the limit that the starting thread has yet to start.
        var ready = FIFOQueue<Producer>()
        /// Admitted producers whose runs have not completed.
        var active = 0
        var isStarting = false
        var isOuterCompleted = false

        /// Makes the caller the starting thread if there is none.
        mutating func claimStarting() -> Bool {
            guard !isStarting else { return false }
            isStarting = true
            return true
        }
    }

    init(input: OperatorInput<Inner, Error>, lifetime: Lifetime, limit: Int) {
        self.input = input
        self.lifetime = lifetime
        self.limit = limit
    }

    func receiveOuter(_ event: Signal<Producer, Error>.Event) {
        switch event {
        case .value(let producer):
            let startsHere = state.withLock { state -> Bool in
                guard state.active < limit else {
                    state.waiting.append(producer)
                    return false
                }
                state.active += 1
                state.ready.append(producer)
                return state.claimStarting()
            }
            if startsHere { startReady() }
        case .completed:
            let completes = state.withLock { state -> Bool in
                state.isOuterCompleted = true
                return state.active == 0
            }
            if completes { input.send(.completed) }
        case .failed(let error):
            input.send(.failed(error))
        case .interrupted:
            input.send(.interrupted)
        }
    }

    /// Starts ready producers until none is left; only the thread that claimed `isStarting` runs it.
    private func startReady() {
        while let producer = state.withLock({ state -> Producer? in
            if let producer = state.ready.popFirst() { return producer }
            state.isStarting = false
            return nil
        }) {
            let run = SerialDisposable()
            guard let handle = lifetime.add(run) else { continue }
            producer.start(
                Signal<Inner, Error>.Observer({ [self] event in receiveInner(event, handle: handle) }),
                in: run
            )
        }
    }

    private func receiveInner(_ event: Signal<Inner, Error>.Event, handle: any Disposable) {
        guard case .completed = event else {
            input.send(event)
            return
        }
        handle.dispose()  // the run is over: stop holding it in the output's lifetime
        let (startsHere, completes) = state.withLock { state -> (Bool, Bool) in
            if let next = state.waiting.popFirst() {
                state.ready.append(next)
                return (state.claimStarting(), false)
            }
            state.active -= 1
            return (false, state.active == 0 && state.isOuterCompleted)
        }
        if startsHere { startReady() }
        if completes { input.send(.completed) }
    }
}
