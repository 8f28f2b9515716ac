import Reactive

/// A discrete-event clock that plays the simulated session: every user action and every server
/// response is an event at a virtual time, run in time order on the main thread.
///
/// Running everything on one thread, in the order of virtual time (ties in the order scheduled),
/// makes the session exactly repeatable: the same seed gives the same log, timestamps included. The
/// run is paced by a ``PlaybackClock`` (the wall clock in the demo, `speed` 1 being real time), so the
/// latency is felt as well as logged.
///
/// The scenes of the tour share one simulation and each calls ``run()``; the virtual clock goes on from
/// where the scene before ended, and the playback clock is started once, by the first ``run()``, so the
/// whole tour plays in the time its log prints.
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
    private let playback: any PlaybackClock
    private var started = false

    /// Creates a simulation that plays `speed` times faster than real time (0: no waiting at all).
    convenience init(speed: Double) {
        self.init(playback: WallPlaybackClock(speed: speed))
    }

    /// Creates a simulation paced by `playback`.
    init(playback: any PlaybackClock) {
        self.playback = playback
    }

    /// Schedules `action` to run `delay` after the current virtual time.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> Ticket {
        precondition(delay >= .zero, "an event cannot be scheduled in the past, got a delay of \(delay)")
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

    /// Runs events in time order until none is left, each when the playback clock reaches its time.
    ///
    /// The first call starts the playback clock; later calls (the next scenes) go on on the same one, so
    /// an event is due at its virtual time from the start of the tour, not from the start of its scene.
    func run() {
        if !started {
            started = true
            playback.start()
        }
        while !events.isEmpty {
            let event = events.removeFirst()
            playback.sleep(until: event.time)
            clock.withLock { $0 = event.time }
            event.action()
        }
    }
}
