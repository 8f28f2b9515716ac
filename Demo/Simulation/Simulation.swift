import Foundation
import Reactive

/// A discrete-event clock that plays the simulated session: every user action and every server
/// response is an event at a virtual time, run in time order on the main thread.
///
/// Running everything on one thread, in the order of virtual time (ties in the order scheduled),
/// makes the session exactly repeatable: the same seed gives the same log, timestamps included. The
/// run is paced by the wall clock (`speed` 1 is real time), so the latency is felt as well as logged.
@MainActor
final class Simulation {
    /// A scheduled event, to cancel it.
    struct Ticket: Hashable {
        fileprivate let sequence: UInt64
    }

    private struct Event {
        let time: Duration
        let ticket: Ticket
        let action: @MainActor () -> Void
    }

    /// The virtual time of the event being run.
    var now: Duration { clock.withLock { $0 } }
    // Guarded by its own lock, so that any thread may read the clock (the log does).
    nonisolated let clock = LockedState(Duration.zero)
    private var events: [Event] = []
    private var sequence: UInt64 = 0
    private let speed: Double

    /// Creates a clock that plays `speed` times faster than real time (0: no waiting at all).
    init(speed: Double) {
        self.speed = speed
    }

    /// Schedules `action` to run `delay` after the current virtual time.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> Ticket {
        sequence += 1
        let event = Event(time: now + delay, ticket: Ticket(sequence: sequence), action: action)
        // Keep the queue sorted by (time, sequence); the queue is short, so a linear insert does.
        let index = events.firstIndex { $0.time > event.time } ?? events.endIndex
        events.insert(event, at: index)
        return event.ticket
    }

    /// Cancels a scheduled event; returns whether it was still pending.
    @discardableResult
    func cancel(_ ticket: Ticket) -> Bool {
        guard let index = events.firstIndex(where: { $0.ticket == ticket }) else { return false }
        events.remove(at: index)
        return true
    }

    /// Runs events in time order until none is left.
    func run() {
        let start = ContinuousClock.now
        while !events.isEmpty {
            let event = events.removeFirst()
            if speed > 0 {
                let due = start + (event.time - .zero) / speed
                let wait = due - ContinuousClock.now
                if wait > .zero {
                    Thread.sleep(forTimeInterval: Double(wait / .microseconds(1)) / 1_000_000)
                }
            }
            clock.withLock { $0 = event.time }
            event.action()
        }
    }
}
