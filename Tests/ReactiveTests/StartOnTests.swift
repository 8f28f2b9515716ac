import Reactive
import TestSupport
import Testing

@Suite("start(on:)")
struct StartOnTests {
    @Test("the start handler runs in an action of the scheduler, not inside start")
    func startHandlerRunsOnTheScheduler() {
        let scheduler = TestScheduler()
        let starts = Locked<[Duration]>([])
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts.append(scheduler.now.sinceOrigin)
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let (recorder, _) = producer.start(on: scheduler).record(on: scheduler)
        #expect(starts.value == [])
        #expect(recorder.history == [])
        scheduler.advance(by: .seconds(2))
        #expect(starts.value == [.zero])
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.zero, .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("disposing before the scheduler runs the start: the work never starts, the observer gets interrupted")
    func disposedBeforeStartNeverStarts() {
        let scheduler = TestScheduler()
        let starts = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts.increment(by: 1)
            observer.send(value: 1)
        }
        let (recorder, disposable) = producer.start(on: scheduler).record(on: scheduler)
        disposable.dispose()
        expectNoPendingWork(scheduler)
        scheduler.run()
        #expect(starts.value == 0)
        #expect(recorder.history == [.at(.zero, .interrupted)])
    }

    @Test("disposing after the start interrupts the work and ends its lifetime")
    func disposedAfterStartInterrupts() {
        let scheduler = TestScheduler()
        let ended = Locked(false)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            observer.send(value: 1)
            lifetime.observeEnded { ended.value = true }
        }
        let (recorder, disposable) = producer.start(on: scheduler).record(on: scheduler)
        scheduler.advance()
        disposable.dispose()
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.zero, .interrupted)])
        #expect(ended.value)
    }

    @Test("each run starts its work anew on the scheduler")
    func eachRunStartsAnew() {
        let scheduler = TestScheduler()
        let starts = Locked<[Duration]>([])
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts.append(scheduler.now.sinceOrigin)
            observer.sendCompleted()
        }.start(on: scheduler)
        producer.start()
        scheduler.advance(by: .seconds(1))
        producer.start()
        scheduler.advance()
        #expect(starts.value == [.zero, .seconds(1)])
    }
}
