import Foundation

/// What paces a ``Simulation`` against real time: one start for the whole tour, then a wait until each
/// event is due.
///
/// The simulation starts its playback clock once, before the first event of its first scene, and never
/// again: every later scene plays on from where the one before ended, so each event is due at its time on
/// the simulation's clock, counted from that one start. Times handed to ``sleep(until:)`` therefore only
/// grow. The demo plays on ``WallPlaybackClock``; a test plays on a virtual clock that returns at once and
/// records what it was asked.
@MainActor
protocol PlaybackClock: AnyObject {
    /// Marks the start of the playback: the instant every later ``sleep(until:)`` counts from.
    func start()

    /// Returns once `time` of the simulation's clock has played since ``start()`` (at once if it has).
    func sleep(until time: Duration)
}

/// The playback clock of the demo: the wall clock, `speed` times faster than real time.
@MainActor
final class WallPlaybackClock: PlaybackClock {
    private let speed: Double
    private var origin: ContinuousClock.Instant?

    /// Creates a clock that plays `speed` times faster than real time (0: no waiting at all).
    init(speed: Double) {
        precondition(speed >= 0, "speed must not be negative, got \(speed)")
        self.speed = speed
    }

    func start() {
        precondition(origin == nil, "a playback starts once")
        origin = ContinuousClock.now
    }

    func sleep(until time: Duration) {
        guard speed > 0, let origin else { return }
        let wait = origin + time / speed - ContinuousClock.now
        if wait > .zero {
            Thread.sleep(forTimeInterval: Double(wait / .microseconds(1)) / 1_000_000)
        }
    }
}
