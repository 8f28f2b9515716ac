import Reactive
import TestSupport
import Testing

@Suite("timeout(after:raising:on:)")
struct TimeoutTests {
    enum TestError: Error, Equatable { case boom, timedOut }

    @Test("fails with the error on the scheduler when the source does not terminate in time; values pass at once")
    func failsAfterTheInterval() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.timeout(after: .seconds(5), raising: .timedOut, on: scheduler).record(on: scheduler)
        input.send(value: 1)
        #expect(recorder.history == [.at(.zero, .value(1))])
        scheduler.advance(by: .milliseconds(4999))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(1))
        input.send(value: 3)
        #expect(
            recorder.history == [
                .at(.zero, .value(1)), .at(.milliseconds(4999), .value(2)), .at(.seconds(5), .failed(.timedOut)),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("terminating in time cancels the timer")
    func terminatingInTimeCancelsTheTimer() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.timeout(after: .seconds(5), raising: .timedOut, on: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(3))
        input.sendCompleted()
        expectNoPendingWork(scheduler)
        scheduler.advance(by: .seconds(10))
        #expect(recorder.history == [.at(.seconds(3), .completed)])
    }

    @Test("a source that cannot fail gets the given error type")
    func neverFailingSource() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.timeout(after: .seconds(1), raising: TestError.timedOut, on: scheduler)
            .record(on: scheduler)
        input.send(value: 1)
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.seconds(1), .failed(.timedOut))])
    }

    @Test("a producer's clock starts when each run starts")
    func producerClockStartsAtTheRun() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, TestError>.never.timeout(
            after: .seconds(5), raising: .timedOut, on: scheduler)
        scheduler.advance(by: .seconds(10))
        let (recorder, _) = producer.record(on: scheduler)
        scheduler.run()
        #expect(recorder.history == [.at(.seconds(15), .failed(.timedOut))])
        let (never, _) = SignalProducer<Int, Never>.never.timeout(
            after: .seconds(1), raising: TestError.boom, on: scheduler
        )
        .record(on: scheduler)
        scheduler.run()
        #expect(never.history == [.at(.seconds(16), .failed(.boom))])
        expectNoPendingWork(scheduler)
    }

    @Test("disposing a run cancels its timer")
    func producerDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, TestError>.never.timeout(
            after: .seconds(5), raising: .timedOut, on: scheduler)
        let (recorder, disposable) = producer.record(on: scheduler)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        #expect(recorder.history == [.at(.zero, .interrupted)])
    }
}
