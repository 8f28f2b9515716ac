import Reactive
import TestSupport
import Testing

@Suite("delay(_:on:)")
struct DelayTests {
    enum TestError: Error, Equatable { case boom }

    @Test("values and completion arrive interval later, in order, keeping their spacing")
    func delaysValuesAndCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.delay(.seconds(2), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(500))
        input.sendCompleted()
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.history == [])
        scheduler.run()
        #expect(
            recorder.history == [
                .at(.seconds(2), .value(1)), .at(.milliseconds(2500), .value(2)), .at(.seconds(3), .completed),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("values sent at one instant arrive together, in order")
    func sameInstantValuesKeepOrder() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.delay(.seconds(1), on: scheduler).record(on: scheduler)
        for value in 1...3 { input.send(value: value) }
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history == (1...3).map { .at(.seconds(1), .value($0)) })
        expectNoPendingWork(scheduler)
    }

    @Test("a failure is not delayed and drops the values still waiting")
    func failureIsForwardedAtOnce() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.delay(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(error: .boom)
        scheduler.advance()
        #expect(recorder.history == [.at(.milliseconds(500), .failed(.boom))])
        expectNoPendingWork(scheduler)
        scheduler.run()
        #expect(recorder.history == [.at(.milliseconds(500), .failed(.boom))])
    }

    @Test("an interruption of the source is not delayed")
    func interruptionIsForwardedAtOnce() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.delay(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        input.sendInterrupted()
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .interrupted)])
        expectNoPendingWork(scheduler)
    }

    @Test("a delay of zero still hops onto the scheduler")
    func zeroDelay() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.delay(.zero, on: scheduler).record(on: scheduler)
        input.send(value: 1)
        #expect(recorder.history == [])
        scheduler.advance()
        #expect(recorder.history == [.at(.zero, .value(1))])
    }

    @Test("a delayed run disposed before its values fall due delivers only interrupted and leaves no timer")
    func producerDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
        let (recorder, disposable) = producer.delay(.seconds(1), on: scheduler).record(on: scheduler)
        scheduler.advance(by: .milliseconds(500))
        disposable.dispose()
        expectNoPendingWork(scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.history == [.at(.milliseconds(500), .interrupted)])
    }

    @Test("each producer run delays its own events")
    func producerRuns() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never>(value: 7).delay(.seconds(1), on: scheduler)
        let (first, _) = producer.record(on: scheduler)
        scheduler.advance(by: .milliseconds(500))
        let (second, _) = producer.record(on: scheduler)
        scheduler.run()
        #expect(first.history == [.at(.seconds(1), .value(7)), .at(.seconds(1), .completed)])
        #expect(second.history == [.at(.milliseconds(1500), .value(7)), .at(.milliseconds(1500), .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("a negative interval traps with a message naming interval")
    func negativeIntervalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.pipe().output.delay(.seconds(-1), on: TestScheduler())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("interval must not be negative"))
    }
}
