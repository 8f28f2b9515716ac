import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// `map`, `filter`, `compactMap`, `skipNil`, `mapError` and `promoteError` on a producer make no signal per
/// run: each run of the result is a run of the source whose events are transformed on their way to the
/// observer. These tests pin that it behaves exactly as the lifted operators did.
@Suite("Fused producer operators")
struct FusedProducerTests {
    @Test("a fused chain runs anew for every start, each run transforming only its own values")
    func coldAndPerRun() {
        let starts = Locked(0)
        let transforms = Locked(0)
        let producer = SignalProducer<Int, ProbeError> { observer, _ in
            let run = starts.withLock { count -> Int in
                count += 1
                return count
            }
            observer.send(value: run * 10)
            observer.send(value: run * 10 + 1)
            observer.sendCompleted()
        }
        let chain = producer.map { value -> Int in
            transforms.increment(by: 1)
            return value * 2
        }.filter { $0 % 4 == 0 }.compactMap { $0 > 0 ? $0 : nil }.mapError { _ in ProbeError.other }
        let first = chain.record().0
        let second = chain.record().0
        #expect(first.events == [.value(20), .completed])
        #expect(second.events == [.value(40), .completed])
        #expect(starts.value == 2)
        #expect(transforms.value == 4)
        let promoted = SignalProducer<Int?, Never>(values: [1, nil, 3]).skipNil().promoteError(ProbeError.self)
        #expect(promoted.record().0.events == [.value(1), .value(3), .completed])
    }

    @Test("disposing a fused run interrupts its source run once, and nothing follows")
    func disposalInterruptsTheSource() {
        let probe = ProducerProbe()
        let (recorder, disposable) = probe.producer.map { $0 + 1 }.filter { _ in true }.mapError { $0 }.record()
        probe.runs[0].observer.send(value: 1)
        disposable.dispose()
        disposable.dispose()
        probe.runs[0].observer.send(value: 2)
        probe.runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(2), .interrupted])
        #expect(probe.runs.count == 1)
        #expect(probe.allRunsEnded)
    }

    @Test("R9: a fused run interrupted from its own observer during a synchronous start stops at once")
    func interruptFromObserverDuringStart() {
        let sent = Locked<[Int]>([])
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            for value in 1...5 where !lifetime.hasEnded {
                sent.append(value)
                observer.send(value: value)
            }
            observer.sendCompleted()
        }
        let recorder = producer.map { $0 * 10 }.startWithSignal { signal, interrupter in
            signal.observeValues { value in
                if value == 20 { interrupter.dispose() }
            }
            return signal.record()
        }
        #expect(sent.value == [1, 2])
        #expect(recorder.events == [.value(10), .value(20), .interrupted])
    }

    @Test("R9: an endless synchronous source behind a fused chain stops when a lifted operator ends the run")
    func endlessSourceStopsThroughLift() {
        let sent = Locked(0)
        let endless = SignalProducer<Int, Never>(values: 0...).map { value -> Int in
            sent.increment(by: 1)
            return value
        }.filter { _ in true }
        let finished = finishesWithin(seconds: 30) {
            _ = endless.take(first: 3).record()
        }
        #expect(finished, "the endless source was not stopped")
        #expect(sent.value == 3)
    }

    @Test("R9: a fused run disposed before its work starts never runs the work and delivers interrupted")
    func disposedBeforeTheWorkStarts() {
        let ran = Locked(false)
        let producer = SignalProducer<Int, Never> { observer, _ in
            ran.value = true
            observer.send(value: 1)
        }.map { $0 }
        let recorder = producer.startWithSignal { signal, interrupter in
            let recorder = signal.record()
            interrupter.dispose()
            return recorder
        }
        #expect(!ran.value)
        #expect(recorder.events == [.interrupted])
        // The same through a scheduler: disposed before the scheduled start, the work never runs.
        let scheduler = TestScheduler()
        let (scheduled, disposable) = producer.start(on: scheduler).record()
        disposable.dispose()
        scheduler.run()
        #expect(!ran.value)
        #expect(scheduled.events == [.interrupted])
    }

    @Test("R6: a fused transform never runs concurrently with itself while its source sends from 4 threads")
    func serialisedTransformUnderConcurrentSends() {
        let inFlight = Unsynchronized(0)
        let overlaps = Unsynchronized(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            raceFromBarrier(threads: 4) { thread in
                for value in 0..<5_000 { observer.send(value: thread * 5_000 + value) }
            }
            observer.sendCompleted()
        }.map { value -> Int in
            inFlight.value += 1
            if inFlight.value != 1 { overlaps.value += 1 }
            inFlight.value -= 1
            return value
        }.filter { _ in true }
        let (recorder, _) = producer.record()
        #expect(overlaps.value == 0)
        #expect(recorder.values.sorted() == Array(0..<20_000))
        #expect(recorder.events.last == .completed)
    }

    @Test("R8: a fused chain frees its closures, its observer and its run", arguments: Ending.allCases)
    func R8_fusedChainFreesEverything(ending: Ending) {
        #expect(
            producerLeakReport(ending) { producer, _, token in
                producer.map { value -> Int in
                    _ = token
                    return value
                }.filter { _ in
                    _ = token
                    return true
                }.mapError { error -> ProbeError in
                    _ = token
                    return error
                }.map(\.description).map { Int($0) }.skipNil()
            } == .clean)
    }
}
