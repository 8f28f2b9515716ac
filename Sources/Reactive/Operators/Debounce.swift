extension Signal {
    /// A signal that sends a value only once `interval` has passed without a newer one, on `scheduler`.
    ///
    /// Every value restarts the wait; when the wait ends, the latest value is delivered on `scheduler`.
    /// A burst of values closer together than `interval` yields its last value only.
    ///
    /// Because every value restarts the wait, a steady stream of values closer together than `interval`
    /// starves this operator: nothing is delivered until the stream pauses for `interval` or completes.
    /// When the latest value must come through while values keep coming, bound the wait with
    /// ``debounce(_:maxWait:on:)``.
    ///
    /// On completion, a value still waiting is sent at once, then the completion, when
    /// `flushOnCompletion` is `true` (the default, as in swift-async-algorithms and RxSwift: the final
    /// value of a stream is never lost); with `false` it is dropped, as ReactiveSwift's default
    /// `discardWhenCompleted: true` does. A failure or an interruption drops the waiting value. Terminal
    /// events are delivered on `scheduler` without waiting.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), on: .main).observeValues { search($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time a value must survive; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    ///   - flushOnCompletion: Whether completion sends the value still waiting before it completes.
    /// - Returns: The debounced signal.
    public func debounce(
        _ interval: Duration,
        on scheduler: some TimeScheduler,
        flushOnCompletion: Bool = true
    ) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        return debounced(interval, maxWait: nil, on: scheduler, flushOnCompletion: flushOnCompletion)
    }

    /// A signal that sends a value once `interval` has passed without a newer one, or once it has waited
    /// `maxWait`, on `scheduler`: a debounce that a steady stream cannot starve.
    ///
    /// Like ``debounce(_:on:flushOnCompletion:)``, every value restarts the quiet wait of `interval`,
    /// and a burst of values closer together than `interval` yields its latest value. Unlike it, the
    /// wait is bounded: the latest value is delivered no later than `maxWait` after the first value of a
    /// burst, however often values arrive, and then no later than `maxWait` after each value delivered
    /// while they keep coming. A burst ends when `interval` passes without a value; the next value starts
    /// a new one, with its own `maxWait`. A value is never held longer than `interval` after it arrived,
    /// nor longer than `maxWait` (on a real queue, plus the queue's own lateness).
    ///
    /// On completion, a value still waiting is sent at once, then the completion: the final value of a
    /// stream is never lost. A failure or an interruption drops the waiting value. Terminal events are
    /// delivered on `scheduler` without waiting. Disposing of the observation cancels the timer.
    ///
    /// ```swift
    /// // Reloads at most every 100 ms while commits keep coming, and 20 ms after the last one.
    /// commits.debounce(.milliseconds(20), maxWait: .milliseconds(100), on: .main)
    ///     .observeValues { _ in reload() }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time after which the latest value is sent; it must not be negative.
    ///   - maxWait: The longest a burst waits for a value to be sent. A `maxWait` smaller than
    ///     `interval` is a programmer error that traps.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The debounced signal.
    public func debounce(
        _ interval: Duration,
        maxWait: Duration,
        on scheduler: some TimeScheduler
    ) -> Signal<Value, Error> {
        requireNonNegative(interval, "interval")
        requireMaxWait(maxWait, atLeast: interval)
        return debounced(interval, maxWait: maxWait, on: scheduler, flushOnCompletion: true)
    }

    /// The debounce itself; a `nil` `maxWait` leaves the wait unbounded.
    private func debounced(
        _ interval: Duration,
        maxWait: Duration?,
        on scheduler: some TimeScheduler,
        flushOnCompletion: Bool
    ) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let state = LockedState(DebounceState<Value>(interval: interval, maxWait: maxWait))
            let timer = SerialDisposable()
            lifetime += timer
            lifetime += observe { event in
                switch event {
                case .value(let value):
                    let now = maxWait == nil ? nil : scheduler.now
                    let (generation, wait) = state.withLock { state in state.hold(value, at: now) }
                    timer.inner = scheduler.schedule(after: wait) {
                        let now = maxWait == nil ? nil : scheduler.now
                        if let value = state.withLock({ state in state.take(ifGeneration: generation, at: now) }) {
                            output.send(value: value)
                        }
                    }
                case .completed where flushOnCompletion:
                    lifetime += scheduler.schedule {
                        if let value = state.withLock({ state in state.take(ifGeneration: nil, at: nil) }) {
                            output.send(value: value)
                        }
                        output.sendCompleted()
                    }
                case .completed, .failed, .interrupted:
                    lifetime += scheduler.schedule { output.send(event) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send a value only once `interval` has passed without a newer one; see
    /// ``Signal/debounce(_:on:flushOnCompletion:)``, which a steady stream can starve.
    ///
    /// - Parameters:
    ///   - interval: The quiet time a value must survive; it must not be negative.
    ///   - scheduler: Where to wait and deliver.
    ///   - flushOnCompletion: Whether completion sends the value still waiting before it completes.
    /// - Returns: The debounced producer.
    public func debounce(
        _ interval: Duration,
        on scheduler: some TimeScheduler,
        flushOnCompletion: Bool = true
    ) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        return lift { $0.debounce(interval, on: scheduler, flushOnCompletion: flushOnCompletion) }
    }

    /// A producer whose runs send a value once `interval` has passed without a newer one, or once it has
    /// waited `maxWait`: the latest value comes through no later than `maxWait` after the first value of
    /// a burst, then at most `maxWait` apart while values keep coming; see
    /// ``Signal/debounce(_:maxWait:on:)``.
    ///
    /// - Parameters:
    ///   - interval: The quiet time after which the latest value is sent; it must not be negative.
    ///   - maxWait: The longest a burst waits for a value to be sent. A `maxWait` smaller than
    ///     `interval` is a programmer error that traps.
    ///   - scheduler: Where to wait and deliver.
    /// - Returns: The debounced producer.
    public func debounce(
        _ interval: Duration,
        maxWait: Duration,
        on scheduler: some TimeScheduler
    ) -> SignalProducer<Value, Error> {
        requireNonNegative(interval, "interval")
        requireMaxWait(maxWait, atLeast: interval)
        return lift { $0.debounce(interval, maxWait: maxWait, on: scheduler) }
    }
}

/// Traps unless `maxWait` is at least `interval`: a shorter bound would cut every quiet wait short.
private func requireMaxWait(_ maxWait: Duration, atLeast interval: Duration) {
    guard maxWait >= interval else {
        fatalError("maxWait must not be less than interval, got maxWait \(maxWait) and interval \(interval)")
    }
}

/// The value a `debounce` holds, which wait may release it and, when the wait is bounded, by when.
private struct DebounceState<Value> {
    private let interval: Duration
    private let maxWait: Duration?
    private var pending: Value?
    private var generation: UInt64 = 0
    /// With `maxWait`: the latest instant the held value may wait until; kept across a burst.
    private var deadline: SchedulerInstant?
    /// With `maxWait`: when the latest value arrived, which tells whether a burst goes on.
    private var lastArrival: SchedulerInstant?

    init(interval: Duration, maxWait: Duration?) {
        self.interval = interval
        self.maxWait = maxWait
    }

    /// Holds `value`, replacing any older one, arrived at `now` (`nil` without `maxWait`).
    ///
    /// - Returns: The generation its wait must match, and how long that wait is: `interval`, or less
    ///   when the burst's deadline falls first.
    mutating func hold(_ value: Value, at now: SchedulerInstant?) -> (generation: UInt64, wait: Duration) {
        var wait = interval
        if let maxWait, let now {
            // A burst goes on while values come less than `interval` apart, across the values sent
            // meanwhile: its next deadline is then `maxWait` after the last one sent. Otherwise this
            // value starts a burst.
            let burstGoesOn = pending != nil || lastArrival.map { now - $0 <= interval } == true
            let due = burstGoesOn ? deadline ?? now + maxWait : now + maxWait
            deadline = due
            lastArrival = now
            wait = min(interval, due - now)
        }
        pending = value
        generation &+= 1
        return (generation, wait)
    }

    /// Takes the held value if the wait of `expected` is still the latest (any wait, for `nil`); `now`
    /// (with `maxWait`) sets the burst's next deadline, in case values keep coming.
    mutating func take(ifGeneration expected: UInt64?, at now: SchedulerInstant?) -> Value? {
        guard expected == nil || expected == generation, let value = pending else { return nil }
        pending = nil
        if let maxWait, let now { deadline = now + maxWait }
        return value
    }
}
