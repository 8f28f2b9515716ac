/// Runs up to `limit` inner producers at once, queueing the others in arrival order.
///
/// Values are forwarded without a shared decision: an inner run's completion is processed after its own
/// values were accepted, so the final completion always follows every value. Runs are started by one
/// thread at a time through a `DrainQueue` of admitted producers (`isStarting` is its flag): a thread
/// that admits a producer while another is starting runs leaves it to that thread, which turns "a run
/// completes at once and lets the next one start" into a loop instead of a recursion.
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
        var ready = DrainQueue<Producer>()
        /// Admitted producers whose runs have not completed.
        var active = 0
        /// Whether a thread is starting runs: the flag of `ready`.
        var isStarting = false
        var isOuterCompleted = false

        /// Admits `producer` under the limit; returns it if the caller is now the starting thread and
        /// starts it first, `nil` if the starting thread will.
        mutating func admit(_ producer: Producer) -> Producer? {
            ready.offer(producer, isDraining: &isStarting) ? producer : nil
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
            let startsHere = state.withLock { state -> Producer? in
                guard state.active < limit else {
                    state.waiting.append(producer)
                    return nil
                }
                state.active += 1
                return state.admit(producer)
            }
            if let startsHere { start(startsHere) }
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

    /// Starts `first`, then every ready producer until none is left; only the starting thread runs it.
    private func start(_ first: Producer) {
        var next: Producer? = first
        while let producer = next {
            let run = SerialDisposable()
            if let handle = lifetime.add(run) {
                producer.start(
                    Signal<Inner, Error>.Observer({ [self] event in receiveInner(event, handle: handle) }),
                    in: run
                )
            }
            next = state.withLock { state in state.ready.next(isDraining: &state.isStarting) }
        }
    }

    private func receiveInner(_ event: Signal<Inner, Error>.Event, handle: any Disposable) {
        guard case .completed = event else {
            input.send(event)
            return
        }
        handle.dispose()  // the run is over: stop holding it in the output's lifetime
        let (startsHere, completes) = state.withLock { state -> (Producer?, Bool) in
            if let next = state.waiting.popFirst() {
                return (state.admit(next), false)
            }
            state.active -= 1
            return (nil, state.active == 0 && state.isOuterCompleted)
        }
        if let startsHere { start(startsHere) }
        if completes { input.send(.completed) }
    }
}
