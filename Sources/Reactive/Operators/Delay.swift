extension Signal {
    /// A signal that delivers every value and the completion `interval` later, on `scheduler`.
    ///
    /// Values and completion keep their order and their spacing. A failure or an interruption is not
    /// delayed: it is delivered on `scheduler` as soon as it can, and the values still waiting are
    /// dropped (an error should not wait behind stale values; this is ReactiveSwift's choice too).
    ///
    /// ```swift
    /// toasts.delay(.seconds(3), on: .main).observeValues { dismiss($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long to hold each value and the completion; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The delayed signal. Its pending timer is cancelled, and the waiting events released,
    ///   when it ends.
    public func delay(_ interval: Duration, on scheduler: some TimeScheduler) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        return Signal { output, lifetime in
            let line = DelayLine<Value, Error>(interval: interval, scheduler: scheduler, output: output)
            lifetime += line.timer
            lifetime += observe { event in
                switch event {
                case .value, .completed:
                    line.enqueue(event)
                case .failed, .interrupted:
                    lifetime += scheduler.schedule { output.send(event) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs deliver every value and the completion `interval` later, on `scheduler`;
    /// see ``Signal/delay(_:on:)``.
    ///
    /// - Parameters:
    ///   - interval: How long to hold each value and the completion; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The delayed producer.
    public func delay(_ interval: Duration, on scheduler: some TimeScheduler) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        return lift { $0.delay(interval, on: scheduler) }
    }
}

/// The events a `delay` holds, in arrival order, with one timer armed for the oldest.
///
/// Keeping the queue here (rather than one timer per event) keeps the order even on a scheduler whose
/// timers with equal deadlines could fire in any order, and cancels with one disposal. The armed timer
/// holds the line strongly (the upstream lets go of it when it completes, and the completion must still
/// be delivered); disposing ``timer`` when the delayed signal ends breaks that cycle.
private final class DelayLine<Value: Sendable, Error: Swift.Error>: Sendable {
    typealias Event = Signal<Value, Error>.Event

    let interval: Duration
    let scheduler: any TimeScheduler
    let output: Signal<Value, Error>.Observer
    /// The armed timer; disposed when the delayed signal ends.
    let timer = SerialDisposable()
    // Guarded by its own lock: the held events, and whether a timer (or a drain) is running for them.
    private let state = LockedState(State())

    private struct State {
        /// The events waiting behind `head`.
        var queue = DrainQueue<Entry>()
        /// Whether a timer (or a drain) is running for the events.
        var isArmed = false
        /// The event the drain holds until it is due.
        var head: Entry?
    }

    private struct Entry {
        let due: SchedulerInstant
        let event: Event
    }

    private enum Step {
        case deliver(Event)
        case wait(Duration)
        case idle
    }

    init(interval: Duration, scheduler: any TimeScheduler, output: Signal<Value, Error>.Observer) {
        self.interval = interval
        self.scheduler = scheduler
        self.output = output
    }

    /// Holds `event` until `interval` from now; arms the timer if none is armed.
    func enqueue(_ event: Event) {
        let entry = Entry(due: scheduler.now + interval, event: event)
        let arms = state.withLock { state -> Bool in
            guard state.queue.offer(entry, isDraining: &state.isArmed) else { return false }
            state.head = entry
            return true
        }
        if arms {
            timer.inner = scheduler.schedule(after: interval) { self.drain() }
        }
    }

    /// Delivers every event that is due, then re-arms the timer for the next one, if any.
    private func drain() {
        while true {
            let now = scheduler.now
            let step = state.withLock { state -> Step in
                if state.head == nil {
                    state.head = state.queue.next(isDraining: &state.isArmed)
                }
                guard let head = state.head else { return .idle }
                guard head.due <= now else { return .wait(head.due - now) }
                state.head = nil
                return .deliver(head.event)
            }
            switch step {
            case .deliver(let event):
                output.send(event)
            case .wait(let delay):
                timer.inner = scheduler.schedule(after: delay) { self.drain() }
                return
            case .idle:
                return
            }
        }
    }
}
