import Reactive
import TestSupport
import Testing

@Suite("SignalProducer.timer(interval:on:)")
struct TimerTests {
    @Test("ticks every interval with the scheduler's time until the run is disposed")
    func ticksUntilDisposed() {
        let scheduler = TestScheduler()
        let (recorder, disposable) = SignalProducer.timer(interval: .seconds(10), on: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(35))
        let ticks: [TimedEvent<SchedulerInstant, Never>] = [10, 20, 30].map {
            .at(.seconds($0), .value(.at(.seconds($0))))
        }
        #expect(recorder.history == ticks)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        scheduler.advance(by: .seconds(100))
        #expect(recorder.history == ticks + [.at(.seconds(35), .interrupted)])
    }

    @Test("each run has its own clock, starting when it starts")
    func eachRunHasItsOwnClock() {
        let scheduler = TestScheduler()
        let timer = SignalProducer.timer(interval: .seconds(2), on: scheduler)
        let (first, firstDisposable) = timer.record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        let (second, secondDisposable) = timer.record(on: scheduler)
        scheduler.advance(by: .seconds(4))
        #expect(first.history.map(\.time) == [.seconds(2), .seconds(4)])
        #expect(second.history.map(\.time) == [.seconds(3), .seconds(5)])
        firstDisposable.dispose()
        secondDisposable.dispose()
        expectNoPendingWork(scheduler)
    }

    @Test("an interval of zero traps with a message naming interval")
    func zeroIntervalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer.timer(interval: .zero, on: TestScheduler())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("interval must be greater than zero"))
    }
}
