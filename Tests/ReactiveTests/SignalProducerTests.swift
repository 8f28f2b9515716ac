import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("SignalProducer")
struct SignalProducerTests {
    enum Failure: Error, Equatable { case boom }

    @Test("a producer is cold: each start runs the work anew, with its own events")
    func coldness() {
        let runs = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            let run = runs.withLock { count -> Int in
                count += 1
                return count
            }
            observer.send(value: run)
            observer.sendCompleted()
        }
        #expect(runs.value == 0)
        let (first, _) = producer.record()
        let (second, _) = producer.record()
        #expect(first.events == [.value(1), .completed])
        #expect(second.events == [.value(2), .completed])
        #expect(runs.value == 2)
    }

    @Test("disposing a start interrupts its run and ends that run's lifetime only")
    func disposalInterruptsOneRun() {
        let server = ManualServer<Int, Int, Never>()
        let (first, firstDisposable) = server.producer(1).record()
        let (second, _) = server.producer(2).record()
        firstDisposable.dispose()
        #expect(first.events == [.interrupted])
        #expect(server.requests.map(\.isDisposed) == [true, false])
        server.requests[1].succeed(20)
        #expect(second.events == [.value(20), .completed])
        #expect(server.requests[1].isDisposed)
    }

    @Test("factories: value, values, error, result, empty, never and deferred")
    func factories() {
        #expect(SignalProducer<Int, Failure>(value: 1).record().0.events == [.value(1), .completed])
        #expect(SignalProducer<Int, Failure>(values: [1, 2]).record().0.events == [.value(1), .value(2), .completed])
        #expect(SignalProducer<Int, Failure>(error: .boom).record().0.events == [.failed(.boom)])
        #expect(SignalProducer<Int, Failure>(result: .success(3)).record().0.events == [.value(3), .completed])
        #expect(SignalProducer<Int, Failure>(result: .failure(.boom)).record().0.events == [.failed(.boom)])
        #expect(SignalProducer<Int, Failure>.empty.record().0.events == [.completed])
        let (never, disposable) = SignalProducer<Int, Failure>.never.record()
        #expect(never.events == [])
        disposable.dispose()
        #expect(never.events == [.interrupted])
        let made = Locked(0)
        let deferred = SignalProducer<Int, Failure>.deferred {
            made.increment(by: 1)
            return SignalProducer(value: made.value)
        }
        #expect(made.value == 0)
        #expect(deferred.record().0.values == [1])
        #expect(deferred.record().0.values == [2])
    }

    @Test("a values producer interrupted part way stops sending")
    func valuesStopWhenInterrupted() {
        let received = Locked<[Int]>([])
        let recorder = SignalProducer<Int, Never>(values: 1...1_000).startWithSignal { signal, interrupter in
            signal.observeValues { value in
                received.append(value)
                if value == 3 { interrupter.dispose() }
            }
            return signal.record()
        }
        #expect(received.value == [1, 2, 3])
        #expect(recorder.events == [.value(1), .value(2), .value(3), .interrupted])
    }

    @Test("startWithSignal lets the setup observe before the work starts")
    func startWithSignalObservesFirst() {
        let producer = SignalProducer<Int, Never>(value: 1)
        let recorder = producer.startWithSignal { signal, _ in signal.record() }
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test("R9: interrupting a run from its own observer during a synchronous start ends its lifetime at once")
    func interruptFromObserverDuringStart() {
        let sent = Locked<[Int]>([])
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            for value in 1...5 where !lifetime.hasEnded {
                sent.append(value)
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
        let recorder = producer.startWithSignal { signal, interrupter in
            signal.observeValues { value in
                if value == 2 { interrupter.dispose() }
            }
            return signal.record()
        }
        #expect(sent.value == [1, 2])
        #expect(recorder.events == [.value(1), .value(2), .interrupted])
    }
}
