import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// The bounded debounce: a steady stream cannot starve it.
@Suite("debounce(_:maxWait:on:)")
struct DebounceMaxWaitTests {
    enum TestError: Error, Equatable { case boom }

    /// Sends 1…100, one every 10 ms from 10 ms (the clock advanced to each instant, then the value sent),
    /// through `debounce`, lets every wait end, and expects no work left pending on the scheduler.
    private static func steadyStream(
        _ debounce: (Signal<Int, Never>, TestScheduler) -> Signal<Int, Never>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [TimedEvent<Int, Never>] {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = debounce(signal, scheduler).record(on: scheduler)
        for value in 1...100 {
            scheduler.advance(to: .at(.milliseconds(10 * value)))
            input.send(value: value)
        }
        scheduler.advance(by: .seconds(1))
        // Checked while `input` is alive: releasing it interrupts the signal.
        withExtendedLifetime(input) { expectNoPendingWork(scheduler, sourceLocation: sourceLocation) }
        return recorder.history
    }

    @Test("R22: under a value every 10 ms, the latest comes out 100 ms after the first, then every 100 ms")
    func r22_steadyStreamIsNotStarved() {
        let history = Self.steadyStream { signal, scheduler in
            signal.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
        }
        let values: [Int] = history.compactMap { $0.event.value }
        let times: [Duration] = history.map { $0.time }
        let gaps: [Duration] = zip(times, times.dropFirst()).map { earlier, later in later - earlier }
        // The first emission: 100 ms after the first value (10 ms), with the latest value sent by then
        // (10, sent at 100 ms; 11 is sent at 110 ms, once the clock got there).
        #expect(history.first == .at(.milliseconds(110), .value(10)))
        #expect(gaps.allSatisfy { $0 <= .milliseconds(100) })
        #expect(zip(values, values.dropFirst()).allSatisfy { earlier, later in earlier < later })
        #expect(history.count <= 11)
        // The last value comes out no later than the 50 ms quiet time after it was sent (at 1,000 ms):
        // here at 1,010 ms, because the 100 ms cadence falls due before the quiet time ends.
        #expect(values.last == 100)
        #expect(times.last.map { $0 <= .milliseconds(1050) } == true)
        let expected: [TimedEvent<Int, Never>] = (1...10).map { step in
            .at(.milliseconds(10 + 100 * step), .value(10 * step))
        }
        #expect(history == expected)
    }

    @Test("R22: without maxWait, the same stream starves the debounce until it stops (documented)")
    func r22_unboundedDebounceStarves() {
        let history = Self.steadyStream { signal, scheduler in
            signal.debounce(.milliseconds(50), on: scheduler)
        }
        #expect(history == [.at(.milliseconds(1050), .value(100))])
    }

    @Test("R22: a burst that starts after a quiet time gets its own maxWait, counted from its first value")
    func r22_eachBurstHasItsOwnBound() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
            .record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(to: .at(.milliseconds(300)))
        for step in 0..<30 {
            scheduler.advance(to: .at(.milliseconds(300 + 10 * step)))
            input.send(value: step + 2)
        }
        scheduler.advance(by: .seconds(1))
        #expect(
            recorder.history == [
                .at(.milliseconds(50), .value(1)),
                .at(.milliseconds(400), .value(11)),
                .at(.milliseconds(500), .value(21)),
                .at(.milliseconds(600), .value(31)),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("R22: completion delivers the waiting value first, then completes")
    func r22_completionFlushes() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
            .record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(5))
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.history == [.at(.milliseconds(5), .value(1)), .at(.milliseconds(5), .completed)])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history.count == 2)
        expectNoPendingWork(scheduler)
    }

    @Test("R22: an interruption while a value waits delivers nothing but the interruption")
    func r22_interruptionDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
            .record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(20))
        input.sendInterrupted()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history == [.at(.milliseconds(20), .interrupted)])
        expectNoPendingWork(scheduler)
    }

    @Test("R22: a failure while a value waits drops it and is delivered at once")
    func r22_failureDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
            .record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(20))
        input.send(error: .boom)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history == [.at(.milliseconds(20), .failed(.boom))])
        expectNoPendingWork(scheduler)
    }

    @Test("R22: a producer run disposed while a value waits delivers interrupted and cancels the timer")
    func r22_producerDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
        let (recorder, disposable) = producer.debounce(.milliseconds(50), maxWait: .milliseconds(100), on: scheduler)
            .record(on: scheduler)
        #expect(scheduler.pendingCount == 1)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history == [.at(.zero, .interrupted)])
    }

    @Test("R22: a maxWait smaller than the interval traps with a message naming maxWait")
    func r22_maxWaitBelowIntervalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.pipe().output.debounce(
                .milliseconds(50),
                maxWait: .milliseconds(10),
                on: TestScheduler()
            )
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("maxWait must not be less than interval"))
    }

    /// A value and the instant, on the queue's clock, at which it was sent or delivered.
    private struct Stamped: Sendable {
        let value: Int
        let time: SchedulerInstant
    }

    /// How long past `maxWait` a value may wait on a real queue before the test fails: the queue's own
    /// lateness on a loaded 2-core machine (under a sanitizer, beside other tests). Generous, so it does
    /// not flake, yet far below the time the senders keep sending (about a second): a debounce without
    /// `maxWait` holds the first values that whole time and fails.
    private static let queueLateness: Duration = .milliseconds(250)

    @Test("R22: four threads sending from a barrier through a queue: emissions were sent, in order, none held long")
    func r22_queueStress() {
        let scheduler = QueueScheduler(label: "stress.debounce.maxWait")
        let maxWait: Duration = .milliseconds(5)
        let (signal, input) = Signal<Int, Never>.pipe()
        let sent = Locked<[Stamped]>([])
        // Added first: it sees each value before the debounce does, in the signal's serial order.
        signal.observeValues { sent.append(Stamped(value: $0, time: scheduler.now)) }
        let emitted = Locked<[Stamped]>([])
        let done = DispatchSemaphore(value: 0)
        signal.debounce(.milliseconds(1), maxWait: maxWait, on: scheduler).observe { event in
            switch event {
            case .value(let value):
                emitted.append(Stamped(value: value, time: scheduler.now))
            case .completed: done.signal()
            default: break
            }
        }
        // Each sender pauses briefly between values, so that the stream lasts about a second; the four
        // together still send far more often than the 1 ms quiet time.
        raceFromBarrier(threads: 4) { thread in
            for index in 0..<2_500 {
                input.send(value: thread * 10_000 + index)
                Thread.sleep(forTimeInterval: 0.000_2)
            }
        }
        input.sendCompleted()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let source = sent.value
        let output = emitted.value
        #expect(source.count == 10_000)
        // Walks the emissions along the source: each is a value sent after the previous emission's
        // (so it was sent, in the signal's order, and never twice), and every value it covers, sent
        // since the previous emission, waited at most `maxWait` plus the queue's lateness for it.
        let position = Dictionary(uniqueKeysWithValues: source.enumerated().map { ($1.value, $0) })
        var firstUncovered = 0
        var longestWait: Duration = .zero
        for emission in output {
            guard let offset = position[emission.value], offset >= firstUncovered else {
                Issue.record("emitted \(emission.value), which was not sent, or out of order")
                return
            }
            longestWait = max(longestWait, emission.time - source[firstUncovered].time)
            firstUncovered = offset + 1
        }
        #expect(firstUncovered == source.count, "the last value sent must be the last emitted")
        #expect(longestWait <= maxWait + Self.queueLateness, "a value waited \(longestWait)")
    }
}
