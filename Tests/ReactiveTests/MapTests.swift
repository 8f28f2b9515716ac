import Reactive
import TestSupport
import Testing

@Suite("map")
struct MapTests {
    @Test("transforms every value of a signal and passes the terminal event")
    func signalMap() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.map { $0 * 10 }.record()
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .completed])
    }

    @Test("R8: a map over an unreachable pipe with no observer never runs its transform")
    func R8_unobservedMapDoesNotRun() {
        let calls = Locked(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        _ = signal.map { value -> Int in
            calls.increment(by: 1)
            return value
        }
        input.send(value: 1)
        #expect(calls.value == 0)
    }

    @Test("a mapped producer run interrupts its upstream run when disposed")
    func producerMapInterrupts() {
        let upstreamEnded = Locked(false)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            observer.send(value: 1)
            lifetime.observeEnded { upstreamEnded.value = true }
        }
        let (recorder, disposable) = producer.map { $0 + 1 }.record()
        disposable.dispose()
        #expect(recorder.events == [.value(2), .interrupted])
        #expect(upstreamEnded.value)
    }

    @Test("R8: a mapped producer's run is freed after it completes")
    func producerMapFreesRun() {
        let tracker = LifetimeTracker()
        do {
            let producer = SignalProducer<Int, Never> { observer, lifetime in
                let token = tracker.instance()
                lifetime.observeEnded { _ = token }
                observer.send(value: 1)
                observer.sendCompleted()
            }
            let (recorder, _) = producer.map { $0 }.record()
            #expect(recorder.events == [.value(1), .completed])
        }
        #expect(tracker.created == 1)
        #expect(tracker.live == 0)
    }
}
