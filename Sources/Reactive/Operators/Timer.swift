extension SignalProducer where Value == SchedulerInstant, Error == Never {
    /// A producer whose runs send the scheduler's time every `interval`, until disposed.
    ///
    /// The first tick comes `interval` after the run starts; each tick sends ``TimeScheduler/now`` as
    /// read when it runs (on a ``TestScheduler``: exactly the start plus a multiple of `interval`). Runs
    /// never complete; dispose them to stop the timer.
    ///
    /// ```swift
    /// SignalProducer.timer(interval: .seconds(1), on: .main)
    ///     .startWithValues { _ in clock.tick() }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time between two ticks; it must be greater than zero.
    ///   - scheduler: Where the ticks run.
    ///   - leeway: How late each tick may run to save energy (a hint; virtual time ignores it).
    /// - Returns: The ticking producer.
    public static func timer(
        interval: Duration,
        on scheduler: some TimeScheduler,
        leeway: Duration = .zero
    ) -> SignalProducer<SchedulerInstant, Never> {
        requirePositiveInterval(interval, "interval")
        requireNonNegative(leeway, "leeway")
        return SignalProducer { observer, lifetime in
            lifetime += scheduler.schedule(after: interval, interval: interval, leeway: leeway) {
                observer.send(value: scheduler.now)
            }
        }
    }
}
