import Reactive
import Testing

/// An event stamped with the virtual time at which it was delivered.
public struct TimedEvent<Value: Sendable, Error: Swift.Error>: Sendable, CustomStringConvertible {
    public let time: Duration
    public let event: Signal<Value, Error>.Event

    /// The event delivered `time` after the scheduler's origin.
    public static func at(_ time: Duration, _ event: Signal<Value, Error>.Event) -> TimedEvent {
        TimedEvent(time: time, event: event)
    }

    public var description: String { "\(event)@\(time)" }
}

extension TimedEvent: Equatable where Value: Equatable, Error: Equatable {}

/// Records every event an observer receives with `scheduler.now`, for whole timed histories.
public final class TimedRecorder<Value: Sendable, Error: Swift.Error>: Sendable {
    private let scheduler: TestScheduler
    private let log = Locked<[TimedEvent<Value, Error>]>([])

    public init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// An observer that appends to this recorder.
    public var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { [log, scheduler] event in
            log.append(.at(scheduler.now.sinceOrigin, event))
        }
    }

    public var history: [TimedEvent<Value, Error>] { log.value }
}

extension Signal {
    /// Observes with a fresh timed recorder and returns it.
    public func record(on scheduler: TestScheduler) -> TimedRecorder<Value, Error> {
        let recorder = TimedRecorder<Value, Error>(scheduler: scheduler)
        observe(recorder.observer)
        return recorder
    }
}

extension SignalProducer {
    /// Starts with a fresh timed recorder; returns it and the start's disposable.
    public func record(on scheduler: TestScheduler) -> (TimedRecorder<Value, Error>, any Disposable) {
        let recorder = TimedRecorder<Value, Error>(scheduler: scheduler)
        let disposable = start(recorder.observer)
        return (recorder, disposable)
    }
}

extension SchedulerInstant {
    /// The instant `duration` after the origin, for readable expectations.
    public static func at(_ duration: Duration) -> SchedulerInstant {
        SchedulerInstant(sinceOrigin: duration)
    }
}

/// Expects `scheduler` to have no work left: tests move time only through the `TestScheduler`, and a
/// test that leaves a timer or a hop scheduled fails, since that work would never run.
public func expectNoPendingWork(_ scheduler: TestScheduler, sourceLocation: SourceLocation = #_sourceLocation) {
    let pending = scheduler.pendingCount
    let next = scheduler.nextDue.map { "\($0)" } ?? "none"
    #expect(
        pending == 0,
        "\(pending) action(s) left pending on the TestScheduler, the next due at \(next)",
        sourceLocation: sourceLocation
    )
}

/// Runs `body` with a fresh `TestScheduler`, then expects it to have no work left pending.
public func withTestScheduler<Result>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (TestScheduler) throws -> Result
) rethrows -> Result {
    let scheduler = TestScheduler()
    let result = try body(scheduler)
    expectNoPendingWork(scheduler, sourceLocation: sourceLocation)
    return result
}
