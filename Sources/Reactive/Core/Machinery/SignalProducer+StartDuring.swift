extension SignalProducer {
    /// Starts a run for `observer` as a follow-up of an operator's run whose lifetime is `lifetime`, unless
    /// that lifetime has ended: once an operator's run is disposed, it starts no other producer.
    ///
    /// The run's interrupter is added to `lifetime` right before the work would start, under the lock of
    /// the lifetime's composite. If the lifetime has ended, the interrupter is disposed at once and the
    /// work never starts (a run disposed from its setup never starts, see `startWithSignal(_:)`); `observer`
    /// then receives `interrupted`. If the lifetime ends later, the run is interrupted.
    ///
    /// - Parameters:
    ///   - observer: Receives the run's events.
    ///   - lifetime: The lifetime of the operator's run the follow-up belongs to.
    @inlinable
    func start(_ observer: Signal<Value, Error>.Observer, during lifetime: Lifetime) {
        _ = start(observer) { interrupter in lifetime += interrupter }
    }

    /// Starts a run for `observer` whose interrupter goes into `slot`, unless `slot` has been disposed.
    ///
    /// The interrupter is set as `slot`'s inner disposable right before the work would start, under the
    /// slot's lock: if `slot` is disposed, the interrupter is disposed at once and the work never starts;
    /// replacing or disposing `slot` later interrupts the run.
    ///
    /// - Parameters:
    ///   - observer: Receives the run's events.
    ///   - slot: Holds the run's interrupter.
    @inlinable
    func start(_ observer: Signal<Value, Error>.Observer, in slot: SerialDisposable) {
        _ = start(observer) { interrupter in slot.inner = interrupter }
    }
}
