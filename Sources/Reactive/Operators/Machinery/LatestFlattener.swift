/// Runs only the latest inner producer.
///
/// Each inner run carries the generation it was started for. Every decision (a new generation, an inner
/// event, the outer completion) runs under the output signal's lock, so an event of a superseded run is
/// either accepted before the switch or dropped, never delivered after the new run's events.
final class LatestFlattener<Inner: Sendable, Error: Swift.Error>: Sendable {
    typealias Producer = SignalProducer<Inner, Error>

    private let input: OperatorInput<Inner, Error>
    /// Holds the latest inner run; replacing it disposes the previous one.
    private let current = SerialDisposable()
    // Guarded by its lock.
    private let state = LockedState(State())

    private struct State {
        var generation: UInt64 = 0
        /// Whether the latest inner run has yet to complete.
        var isInnerActive = false
        var isOuterCompleted = false
    }

    init(input: OperatorInput<Inner, Error>, lifetime: Lifetime) {
        self.input = input
        lifetime += current
    }

    func receiveOuter(_ event: Signal<Producer, Error>.Event) {
        switch event {
        case .value(let producer):
            var generation: UInt64 = 0
            input.send { _ in
                state.withLock { state in
                    state.generation &+= 1
                    state.isInnerActive = true
                    generation = state.generation
                }
                return nil
            }
            let slot = SerialDisposable()
            current.inner = slot  // disposes the previous run before the new one starts
            producer.start(
                Signal<Inner, Error>.Observer({ [self, generation] event in
                    receiveInner(event, generation: generation)
                }),
                in: slot
            )
        case .completed:
            input.send { _ in
                state.withLock { state in
                    state.isOuterCompleted = true
                    return state.isInnerActive ? nil : .completed
                }
            }
        case .failed(let error):
            input.send(.failed(error))
        case .interrupted:
            input.send(.interrupted)
        }
    }

    private func receiveInner(_ event: Signal<Inner, Error>.Event, generation: UInt64) {
        input.send { _ in
            state.withLock { state -> Signal<Inner, Error>.Event? in
                guard state.generation == generation else { return nil }
                guard case .completed = event else { return event }
                state.isInnerActive = false
                return state.isOuterCompleted ? .completed : nil
            }
        }
    }
}
