import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Signal disposal")
struct SignalDisposalTests {
    @Test("R5: an observer that disposes itself in its callback does not get the next queued value")
    func R5_disposeInsideOwnCallback() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let own = Locked<(any Disposable)?>(nil)
        let log = Locked<[Int]>([])
        let other = EventRecorder<Int, Never>()
        own.value = signal.observeValues { value in
            log.append(value)
            input.send(value: value + 1)
            own.value?.dispose()
        }
        signal.observe(other.observer)
        input.send(value: 1)
        input.send(value: 10)
        #expect(log.value == [1])
        #expect(other.values == [1, 2, 10])
    }

    @Test("R5: a disposable reports disposed once dispose() returned, and disposing again is harmless")
    func R5_observationDisposableState() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        let observation = signal.observe(recorder.observer)
        #expect(!observation.isDisposed)
        input.send(value: 1)
        observation.dispose()
        #expect(observation.isDisposed)
        observation.dispose()
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value(1)])
    }

    @Test("R5: the mobius pattern: 1,000 observations disposed on B while A sends get nothing new afterwards")
    func R5_mobiusPattern() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let stop = Flag()
        let senderDone = DispatchSemaphore(value: 0)
        let sender = Thread {
            var value = 0
            while !stop.isSet {
                value += 1
                input.send(value: value)
            }
            senderDone.signal()
        }
        sender.start()
        let observations = 1_000
        // Per observation: how many callouts started after its dispose() had returned.
        let lateCounts = Locked<[Locked<Int>]>([])
        let timedOut = Locked(0)
        let finished = finishesWithin(seconds: 120) {
            for _ in 0..<observations {
                let firstValue = DispatchSemaphore(value: 0)
                let returned = Flag()
                let late = Locked(0)
                lateCounts.append(late)
                let observation = signal.observeValues { _ in
                    if returned.isSet { late.increment(by: 1) }
                    firstValue.signal()
                }
                if firstValue.wait(timeout: .now() + 30) == .timedOut { timedOut.increment(by: 1) }
                observation.dispose()
                returned.set()
            }
        }
        stop.set()
        #expect(senderDone.wait(timeout: .now() + 30) == .success)
        #expect(finished, "deadlock: the disposer did not finish")
        #expect(timedOut.value == 0)
        #expect(lateCounts.value.count == observations)
        // On another thread, at most the one delivery the drainer had already committed to (it checked
        // the observer before the dispose took the lock) can begin after dispose() returns; never two.
        #expect(lateCounts.value.allSatisfy { $0.value <= 1 })
    }
}
