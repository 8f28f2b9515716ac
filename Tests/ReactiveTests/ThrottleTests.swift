import Reactive
import TestSupport
import Testing

@Suite("throttle(_:on:)")
struct ThrottleTests {
    enum TestError: Error, Equatable { case boom }

    @Test("sends the first value at once, then at most one per interval: the latest")
    func firstAtOnceThenLatestPerInterval() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        let sends: [(Duration, Int)] = [
            (.zero, 1), (.milliseconds(200), 2), (.milliseconds(500), 3), (.milliseconds(1500), 4),
            (.milliseconds(3500), 5), (.milliseconds(3600), 6),
        ]
        for (time, value) in sends {
            scheduler.schedule(after: time) { input.send(value: value) }
        }
        scheduler.run()
        #expect(
            recorder.history == [
                .at(.zero, .value(1)), .at(.seconds(1), .value(3)), .at(.seconds(2), .value(4)),
                .at(.milliseconds(3500), .value(5)), .at(.milliseconds(4500), .value(6)),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("the first value hops onto the scheduler rather than arriving inside send")
    func firstValueHops() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        #expect(recorder.history == [])
        scheduler.advance()
        #expect(recorder.history == [.at(.zero, .value(1))])
    }

    @Test("completion sends the value still waiting at once, then completes")
    func completionFlushes() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(100))
        input.sendCompleted()
        scheduler.run()
        #expect(
            recorder.history == [
                .at(.zero, .value(1)), .at(.milliseconds(600), .value(2)), .at(.milliseconds(600), .completed),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("a failure drops the value still waiting and is delivered at once")
    func failureDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        input.send(error: .boom)
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.milliseconds(500), .failed(.boom))])
        expectNoPendingWork(scheduler)
    }

    @Test("values that arrive before the first send runs collapse to the latest")
    func valuesBeforeTheFirstSendCollapse() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never>(values: [1, 2, 3])
        let (recorder, _) = producer.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .value(3)), .at(.zero, .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("a throttled producer run disposed while a value waits delivers interrupted and leaves no timer")
    func producerDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never> { observer, _ in
            observer.send(value: 1)
            scheduler.schedule { observer.send(value: 2) }
        }
        let (recorder, disposable) = producer.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        scheduler.advance()
        #expect(scheduler.pendingCount == 1)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.zero, .interrupted)])
    }
}
