extension Signal {
    /// A signal that delivers every event of this one on `scheduler`.
    ///
    /// Each event is handed to `scheduler` as it arrives, so events keep their order on a serial
    /// scheduler (every scheduler of this module is serial), terminal events included. Observers may
    /// send back into the source from inside a callback: those events queue behind the ones already
    /// handed over (FIFO).
    ///
    /// Disposal wins over the hop: an event still waiting for the scheduler when the observation is
    /// disposed is dropped, never delivered. When the returned signal ends (its last observer is
    /// disposed and nobody holds it, or it terminates), its waiting hops are cancelled and their events
    /// released.
    ///
    /// ```swift
    /// results.observe(on: .main).observeValues { rows in tableView.reload(rows) }
    /// ```
    ///
    /// - Parameter scheduler: Where to deliver. ``ImmediateScheduler`` delivers at once, on the sending
    ///   thread.
    /// - Returns: A signal of the same events, delivered on `scheduler`.
    public func observe(on scheduler: some Scheduler) -> Signal<Value, Error> {
        Signal { output, lifetime in
            let hops = ScheduledActionSet()
            lifetime.observeEnded { hops.cancelAll() }
            lifetime += observe { event in
                hops.schedule({ scheduler.schedule($0) }) { output.send(event) }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs deliver every event on `scheduler`; see ``Signal/observe(on:)``.
    ///
    /// The work itself still starts on the thread that calls `start` (see ``start(on:)`` to move it).
    /// Disposing a run interrupts it at once, on the disposing thread; events still waiting for the hop
    /// are dropped.
    ///
    /// - Parameter scheduler: Where to deliver.
    /// - Returns: A producer of the same events, delivered on `scheduler`.
    public func observe(on scheduler: some Scheduler) -> SignalProducer<Value, Error> {
        lift { $0.observe(on: scheduler) }
    }
}
