import Reactive
import TestSupport
import Testing

@Suite("debounce(_:on:)")
struct DebounceTests {
    enum TestError: Error, Equatable { case boom }

    @Test("a burst yields its last value once the interval has passed without a newer one")
    func burstYieldsItsLastValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(value: 2)
        scheduler.advance(by: .milliseconds(400))
        input.send(value: 3)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.history == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.history == [.at(.milliseconds(1900), .value(3))])
        scheduler.advance(by: .seconds(1))
        input.send(value: 4)
        scheduler.run()
        #expect(recorder.history == [.at(.milliseconds(1900), .value(3)), .at(.milliseconds(3900), .value(4))])
        expectNoPendingWork(scheduler)
    }

    @Test("by default, completion sends the value still waiting at once, then completes")
    func completionFlushesByDefault() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.sendCompleted()
        scheduler.advance()
        #expect(recorder.history == [.at(.milliseconds(500), .value(1)), .at(.milliseconds(500), .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("with flushOnCompletion false, completion drops the value still waiting")
    func completionDiscards() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler, flushOnCompletion: false).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.sendCompleted()
        scheduler.run()
        #expect(recorder.history == [.at(.milliseconds(500), .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("completion with no value waiting just completes, and a delivered value is not sent twice")
    func completionWithNothingWaiting() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .seconds(2))
        input.sendCompleted()
        scheduler.run()
        #expect(recorder.history == [.at(.seconds(1), .value(1)), .at(.seconds(2), .completed)])
    }

    @Test("completion at the instant the wait ends delivers the value once")
    func completionRacingTheTimer() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.schedule(after: .seconds(1)) { input.sendCompleted() }
        scheduler.run()
        #expect(recorder.history == [.at(.seconds(1), .value(1)), .at(.seconds(1), .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("a failure drops the value still waiting and is delivered at once")
    func failureDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(value: 1)
        scheduler.advance(by: .milliseconds(500))
        input.send(error: .boom)
        scheduler.run()
        #expect(recorder.history == [.at(.milliseconds(500), .failed(.boom))])
        expectNoPendingWork(scheduler)
    }

    @Test("a debounced producer run disposed while a value waits delivers interrupted and leaves no timer")
    func producerDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never> { observer, _ in observer.send(value: 1) }
        let (recorder, disposable) = producer.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        #expect(recorder.history == [.at(.zero, .interrupted)])
    }
}
