extension Signal {
    /// A signal that sends at most one value per `interval`, on `scheduler`: the first at once, then the
    /// latest of each interval.
    ///
    /// A value that arrives when nothing was sent in the last `interval` is delivered on `scheduler` at
    /// once. A value that arrives sooner waits until `interval` after the last value sent; if newer
    /// values arrive meanwhile, only the latest is sent then (ReactiveSwift's semantics). Values that
    /// arrive before `scheduler` has run the first send collapse the same way: it sends the latest.
    ///
    /// On completion a value still waiting is sent at once, then the completion, so the final value of a
    /// stream is never lost (ReactiveSwift drops it); a failure or an interruption drops it. Terminal
    /// events are delivered on `scheduler` without waiting.
    ///
    /// ```swift
    /// progress.throttle(.milliseconds(100), on: .main).observeValues { bar.progress = $0 }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The least time between two values sent; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The throttled signal.
    public func throttle(_ interval: Duration, on scheduler: some TimeScheduler) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        return Signal { output, lifetime in
            let state = LockedState(ThrottleState<Value>())
            let timer = SerialDisposable()
            lifetime += timer
            let send: @Sendable () -> Void = {
                let now = scheduler.now
                if let value = state.withLock({ state in state.take(sentAt: now) }) {
                    output.send(value: value)
                }
            }
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    let now = scheduler.now
                    switch state.withLock({ state in state.hold(value, now: now, interval: interval) }) {
                    case .none:
                        break
                    case .some(let wait) where wait > .zero:
                        timer.inner = scheduler.schedule(after: wait, action: send)
                    case .some:
                        timer.inner = scheduler.schedule(send)
                    }
                case .completed:
                    lifetime += scheduler.schedule {
                        if let value = state.withLock({ state in state.take(sentAt: nil) }) {
                            output.send(value: value)
                        }
                        output.sendCompleted()
                    }
                case .failed, .interrupted:
                    lifetime += scheduler.schedule { output.send(event) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send at most one value per `interval`: the first at once, then the latest of
    /// each interval; see ``Signal/throttle(_:on:)``.
    ///
    /// - Parameters:
    ///   - interval: The least time between two values sent; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The throttled producer.
    public func throttle(_ interval: Duration, on scheduler: some TimeScheduler) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        return lift { $0.throttle(interval, on: scheduler) }
    }
}

/// The value a `throttle` holds and when it last sent one.
private struct ThrottleState<Value> {
    private var pending: Value?
    private var isScheduled = false
    private var lastSent: SchedulerInstant?

    /// Holds `value` as the latest; returns how long to wait before sending it.
    ///
    /// - Returns: The wait, or `nil` if a send is already scheduled (it will take this value).
    mutating func hold(_ value: Value, now: SchedulerInstant, interval: Duration) -> Duration? {
        pending = value
        guard !isScheduled else { return nil }
        isScheduled = true
        guard let lastSent else { return .zero }
        return max(.zero, (lastSent + interval) - now)
    }

    /// Takes the held value to send it; `sentAt` starts the next interval (`nil` for a final flush).
    mutating func take(sentAt now: SchedulerInstant?) -> Value? {
        isScheduled = false
        guard let value = pending else { return nil }
        pending = nil
        if let now { lastSent = now }
        return value
    }
}
