import Reactive

/// The simulation's clock as a `TimeScheduler`, for a `PagingPolicy`: the paginator's load timeout and
/// its retry backoff become events of the simulation, as repeatable as every server response.
///
/// The simulation runs everything on the main thread, where the paginator is called and its sources
/// answer, so the paginator arms and disposes its timers there too; a call from another thread is a
/// programming error of the demo and traps (`MainActor.assumeIsolated`).
final class SimulationScheduler: TimeScheduler {
    private let simulation: Simulation

    /// Creates a scheduler whose time is `simulation`'s clock.
    init(_ simulation: Simulation) {
        self.simulation = simulation
    }

    /// The simulation's virtual time, as an instant from its start.
    var now: SchedulerInstant {
        SchedulerInstant(sinceOrigin: simulation.clock.withLock { $0 })
    }

    /// Runs `action` as the next event of the simulation, after the events already due now.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        schedule(after: .zero, action: action)
    }

    /// Runs `action` `delay` after the simulation's current time; disposing cancels it if still pending.
    @discardableResult
    func schedule(after delay: Duration, action: @escaping @Sendable () -> Void) -> any Disposable {
        MainActor.assumeIsolated {
            let ticket = simulation.schedule(after: max(.zero, delay)) { action() }
            return AnyDisposable { [simulation] in
                MainActor.assumeIsolated { _ = simulation.cancel(ticket) }
            }
        }
    }

    /// Runs `action` after `delay`, then every `interval` until disposed (the leeway is ignored: the
    /// clock is virtual).
    @discardableResult
    func schedule(
        after delay: Duration, interval: Duration, leeway: Duration, action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        precondition(interval > .zero, "interval must be greater than zero, got \(interval)")
        let current = SerialDisposable()
        let stopped = LockedState(false)
        @Sendable func tick(after wait: Duration) {
            current.inner = schedule(after: wait) {
                guard !stopped.withLock({ $0 }) else { return }
                action()
                tick(after: interval)
            }
        }
        tick(after: delay)
        return AnyDisposable {
            stopped.withLock { $0 = true }
            current.dispose()
        }
    }
}
