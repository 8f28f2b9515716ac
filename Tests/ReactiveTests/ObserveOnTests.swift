import Reactive
import TestSupport
import Testing

@Suite("observe(on:)")
struct ObserveOnTests {
    enum TestError: Error, Equatable { case boom }

    @Test("delivers every event on the scheduler, only when the scheduler runs, in order")
    func deliversOnTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.observe(on: scheduler).record(on: scheduler)
        input.send(value: 1)
        input.send(value: 2)
        #expect(recorder.history == [])
        scheduler.advance(by: .seconds(1))
        input.send(value: 3)
        input.send(error: .boom)
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.zero, .value(2))])
        scheduler.advance()
        #expect(
            recorder.history == [
                .at(.zero, .value(1)), .at(.zero, .value(2)), .at(.seconds(1), .value(3)),
                .at(.seconds(1), .failed(.boom)),
            ]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("R5: a value queued for the hop is dropped when the observation is disposed first; its captures are freed")
    func R5_queuedValueDroppedAfterDisposal() {
        final class Captured: Sendable {}
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let delivered = Locked<[Int]>([])
        weak var weakCaptured: Captured?
        var disposable: (any Disposable)? = {
            let captured = Captured()
            weakCaptured = captured
            return signal.observe(on: scheduler).observeValues { value in
                _ = captured
                delivered.append(value)
            }
        }()
        input.send(value: 1)
        #expect(scheduler.pendingCount == 1)
        disposable?.dispose()
        // The observation's disposable holds its observer (a core detail); the hop must not.
        disposable = nil
        scheduler.run()
        #expect(delivered.value == [])
        #expect(weakCaptured == nil)
        expectNoPendingWork(scheduler)
    }

    @Test("R5: disposing the observation cancels its hops at once, even while the derived signal is held")
    func R5_heldSignalDropsAfterDisposal() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let derived = signal.observe(on: scheduler)
        let first = EventRecorder<Int, Never>()
        let firstDisposable = derived.observe(first.observer)
        let second = derived.record()
        input.send(value: 1)
        firstDisposable.dispose()
        scheduler.run()
        #expect(first.events == [])
        #expect(second.events == [.value(1)])
        expectNoPendingWork(scheduler)
    }

    @Test("R14: a value then sendCompleted keep their order through the hop")
    func R14_valueThenCompletedKeepOrder() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.observe(on: scheduler).record(on: scheduler)
        input.send(value: 1)
        input.sendCompleted()
        scheduler.run()
        #expect(recorder.history == [.at(.zero, .value(1)), .at(.zero, .completed)])
        expectNoPendingWork(scheduler)
    }

    @Test("R14: values an observer sends back into the source queue behind the ones already handed over (FIFO)")
    func R14_recursiveSendsKeepFIFO() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Locked<[Int]>([])
        signal.observe(on: scheduler).observeValues { value in
            log.append(value)
            if value == 1 {
                input.send(value: 10)
                input.send(value: 11)
            }
            if value == 10 { input.sendCompleted() }
        }
        let recorder = signal.observe(on: scheduler).record(on: scheduler)
        input.send(value: 1)
        input.send(value: 2)
        scheduler.run()
        #expect(log.value == [1, 2, 10, 11])
        #expect(recorder.history.map(\.event) == [.value(1), .value(2), .value(10), .value(11), .completed])
        expectNoPendingWork(scheduler)
    }

    @Test("accepts a scheduler held as an existential, as a configuration setting would hold it")
    func existentialScheduler() {
        withTestScheduler { testScheduler in
            let scheduler: any Scheduler = testScheduler
            let (signal, input) = Signal<Int, Never>.pipe()
            let recorder = signal.observe(on: scheduler).record()
            let producerRecorder = SignalProducer<Int, Never>(value: 2).observe(on: scheduler).record().0
            input.send(value: 1)
            #expect(recorder.events == [])
            testScheduler.advance()
            #expect(recorder.events == [.value(1)])
            #expect(producerRecorder.events == [.value(2), .completed])
            input.sendCompleted()
            testScheduler.advance()
            #expect(recorder.events == [.value(1), .completed])
        }
    }

    @Test("with the immediate scheduler, events arrive at once on the sending thread, reentrant sends FIFO")
    func immediateScheduler() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Locked<[Int]>([])
        signal.observe(on: .immediate).observeValues { value in
            log.append(value)
            if value == 1 { input.send(value: 2) }
            if value == 1 { log.append(-1) }
        }
        input.send(value: 1)
        #expect(log.value == [1, -1, 2])
    }

    @Test("a producer run delivers on the scheduler; disposing interrupts at once and drops queued values")
    func producerRunDisposal() {
        let scheduler = TestScheduler()
        let producer = SignalProducer<Int, Never>(values: [1, 2, 3]).concatNever()
        let (recorder, disposable) = producer.observe(on: scheduler).record(on: scheduler)
        #expect(scheduler.pendingCount == 3)
        scheduler.advance()
        #expect(recorder.history.map(\.event) == [.value(1), .value(2), .value(3)])
        let (second, secondDisposable) = producer.observe(on: scheduler).record(on: scheduler)
        secondDisposable.dispose()
        #expect(second.history == [.at(.zero, .interrupted)])
        expectNoPendingWork(scheduler)
        disposable.dispose()
        #expect(recorder.history.last == .at(.zero, .interrupted))
    }
}

extension SignalProducer {
    /// The values of this producer, then nothing: the run never terminates by itself.
    fileprivate func concatNever() -> SignalProducer<Value, Error> {
        SignalProducer { observer, lifetime in
            lifetime += start { event in
                if case .value(let value) = event { observer.send(value: value) }
            }
        }
    }
}
