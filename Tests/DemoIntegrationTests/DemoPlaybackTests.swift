import Foundation
import Reactive
import Testing

@testable import Demo

/// The simulation's schedule, played on a virtual clock: one start for the whole tour, and every event
/// due at its time on the tour's clock, so the demo plays in the time it prints.
@Suite("Demo's playback clock")
@MainActor
struct DemoPlaybackTests {
    @Test("scenes run on one simulation share one start; the second goes on from where the first ended")
    func scenesShareOneStart() {
        let playback = VirtualPlaybackClock()
        let simulation = Simulation(playback: playback)
        let ran = LockedState<[String]>([])
        simulation.schedule(after: .seconds(2)) { ran.withLock { $0.append("first scene, 2 s") } }
        simulation.schedule(after: .seconds(1)) { ran.withLock { $0.append("first scene, 1 s") } }
        simulation.run()
        simulation.schedule(after: .milliseconds(500)) {
            ran.withLock { $0.append("second scene, 0.5 s after its start") }
            simulation.schedule(after: .zero) { ran.withLock { $0.append("second scene, at once") } }
        }
        simulation.run()

        #expect(
            playback.calls == [
                .start, .sleep(until: .seconds(1)), .sleep(until: .seconds(2)), .sleep(until: .milliseconds(2500)),
                .sleep(until: .milliseconds(2500)),
            ])
        #expect(
            ran.withLock { $0 } == [
                "first scene, 1 s", "first scene, 2 s", "second scene, 0.5 s after its start", "second scene, at once",
            ])
        #expect(simulation.now == .milliseconds(2500))
    }

    // No time limit of its own: a test's limit counts the time it waits for a thread, which under a
    // sanitizer on a loaded 2-core machine is minutes; CI's deadline for the whole pass guards against a hang.
    @Test("the default tour starts its playback once, its event times only grow, and the last is the printed time")
    func defaultTourPlaysOnOneClock() throws {
        let playback = VirtualPlaybackClock()
        let writes = LockedState<[String]>([])
        let status = SimulatedRun.run(
            try DemoOptions.parse([]), on: Simulation(playback: playback), loggingTo: .memory(writes))
        let log = writes.withLock { $0.joined(separator: "\n") }
        #expect(status == .success, "\(log)")

        #expect(playback.calls.first == .start)
        #expect(playback.calls.filter { $0 == .start }.count == 1)
        let times = playback.sleeps
        #expect(!times.isEmpty)
        #expect(times == times.sorted(), "an event is due before the one played ahead of it")
        // All seven scenes play, each calling `run()` on the same simulation, in this order.
        let scenes = [
            "── The user opens the list", "── A chat opens at its newest message", "── A server that hangs",
            "── A long list with a memory bound", "── A relaunch, first launch", "── A relaunch, second launch",
            "── A jump to the middle", "── Summary",
        ]
        let starts = scenes.compactMap { log.range(of: $0)?.lowerBound }
        #expect(starts.count == scenes.count && starts == starts.sorted(), "the scenes, in order")
        #expect(log.contains("invariants   all held"))

        // The summary's time on the simulation's clock is the time of the last event played.
        let printed = try #require(
            log.firstMatch(of: /time +([0-9]+\.[0-9]{3}s) on the simulation's clock/)?.output.1)
        let last = try #require(times.last)
        #expect(String(printed) == Log.format(last))
        // Every timestamp of the log, scene after scene, grows too, up to that time.
        let stamps = log.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /^ *([0-9]+)\.([0-9]{3})s  .*/).map { Int($0.output.1)! * 1000 + Int($0.output.2)! }
        }
        #expect(stamps.count > 100)
        #expect(stamps == stamps.sorted())
        #expect(stamps.last == Int((last / .milliseconds(1)).rounded()))
    }
}

/// A playback clock that never waits: it records its start and every wake-up the simulation asks for,
/// and returns at once.
@MainActor
final class VirtualPlaybackClock: PlaybackClock {
    /// A call the simulation made.
    enum Call: Equatable {
        case start
        case sleep(until: Duration)
    }

    /// Every call, in order.
    private(set) var calls: [Call] = []

    /// The wake-up times asked for, in order.
    var sleeps: [Duration] {
        calls.compactMap {
            if case .sleep(let time) = $0 { time } else { nil }
        }
    }

    func start() {
        calls.append(.start)
    }

    func sleep(until time: Duration) {
        calls.append(.sleep(until: time))
    }
}
