import Dispatch
import Reactive
import TestSupport
import Testing

/// A derived signal with one observer remembers it and delivers the next value to it with no lock taken,
/// for as long as its observer list does not change. These tests pin what must still hold on that path:
/// disposal wins (from an earlier link of the chain, and from another thread), an observer added beside or
/// instead of the remembered one gets every later value, and one attached while values were queued gets
/// none of them, even once it is the only observer.
@Suite("Derived signals: the remembered only observer")
struct DerivedSoleObserverTests {
    @Test("R5: the only observer of a chain's last link, disposed by an earlier link, misses the value")
    func R5_disposedByAnEarlierLink() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation = Locked<(any Disposable)?>(nil)
        let last =
            signal
            .map { value -> Int in
                if value == 3 { observation.value?.dispose() }
                return value
            }
            .filter { _ in true }
            .map { $0 * 10 }
        let recorder = EventRecorder<Int, Never>()
        observation.value = last.observe(recorder.observer)
        // 1 and 2 reach the remembered observer; the map disposes it on 3, before the value gets there.
        for value in 1...4 { input.send(value: value) }
        withExtendedLifetime(last) {}
        #expect(recorder.events == [.value(10), .value(20)])
    }

    @Test("R5: the only observer, disposed on another thread while an earlier link runs, misses the value")
    func R5_disposedOnAnotherThreadMidChain() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation = Locked<(any Disposable)?>(nil)
        let disposeReturned = Flag()
        let last =
            signal
            .map { value -> Int in
                guard value == 3 else { return value }
                // Another thread disposes the chain's observer; this link goes on once `dispose()` returned.
                let returned = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    observation.value?.dispose()
                    disposeReturned.set()
                    returned.signal()
                }
                returned.wait()
                return value
            }
            .map { $0 * 10 }
        let lateValues = Locked(0)
        let received = Locked<[Int]>([])
        observation.value = last.observeValues { value in
            if disposeReturned.isSet { lateValues.increment(by: 1) }
            received.append(value)
        }
        for value in 1...4 { input.send(value: value) }
        withExtendedLifetime(last) {}
        #expect(received.value == [10, 20])
        #expect(lateValues.value == 0)
    }

    @Test("R7: an observer added beside the remembered one gets every later value, and so does it")
    func R7_observerAddedBesideTheOnlyOne() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.map { $0 + 100 }
        let first = mapped.record()
        input.send(value: 1)
        input.send(value: 2)
        let second = mapped.record()
        input.send(value: 3)
        input.send(value: 4)
        #expect(first.values == [101, 102, 103, 104])
        #expect(second.values == [103, 104])
    }

    @Test("R7: an observer that replaces the remembered one between values gets every later value")
    func R7_observerReplacesTheOnlyOne() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.map { $0 * 2 }
        let firstValues = Locked<[Int]>([])
        let firstObservation = mapped.observeValues { firstValues.append($0) }
        input.send(value: 1)
        input.send(value: 2)
        firstObservation.dispose()
        let second = mapped.record()
        input.send(value: 3)
        input.send(value: 4)
        #expect(firstValues.value == [2, 4])
        #expect(second.values == [6, 8])
    }

    @Test("R7: an observer attached while values are queued gets none of them, also once it is the only one")
    func R7_onlyObserverAttachedBehindQueuedValues() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.map { $0 }
        let late = Locked<EventRecorder<Int, Never>?>(nil)
        let firstObservation = Locked<(any Disposable)?>(nil)
        let firstValues = Locked<[Int]>([])
        firstObservation.value = mapped.observeValues { value in
            firstValues.append(value)
            guard value == 1 else { return }
            // 2 and 3 are queued behind 1; the new observer attaches after both were accepted, and the
            // first one leaves, so the new one is the signal's only observer when they are delivered.
            input.send(value: 2)
            input.send(value: 3)
            late.value = mapped.record()
            firstObservation.value?.dispose()
        }
        input.send(value: 1)
        input.send(value: 4)
        input.send(value: 5)
        #expect(firstValues.value == [1])
        #expect(late.value?.values == [4, 5])
    }

    @Test("R8: the remembered observer's handler, disposed during its own callout, is released after it")
    func R8_rememberedHandlerDisposedInItsCallout() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let chain = signal.map { $0 }.filter { _ in true }
        let observation = Locked<(any Disposable)?>(nil)
        let calls = Locked(0)
        do {
            let token = tracker.instance()
            observation.value = chain.observeValues { value in
                calls.increment(by: 1)
                if value == 2 { observation.value?.dispose() }
                // Still alive here, after its own disposal: the drainer releases it after the callout.
                withExtendedLifetime(token) {}
            }
        }
        for value in 1...3 { input.send(value: value) }
        #expect(calls.value == 2)
        #expect(tracker.live == 0)
    }

    @Test("R5: one thread sends through a chain while another swaps its only observer: nothing after dispose")
    func R5_onlyObserverSwappedWhileValuesFlow() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let chain = signal.map { $0 }.filter { _ in true }.map { $0 }
        let sent = 50_000
        let mostLateValues = Locked(0)
        let gaps = Locked(0)
        let observers = Locked(0)
        let stop = Flag()
        let finished = finishesWithin(seconds: 120) {
            raceFromBarrier(threads: 2) { thread in
                if thread == 0 {
                    for value in 0..<sent { input.send(value: value) }
                    stop.set()
                    return
                }
                while !stop.isSet {
                    let returned = Flag()
                    let lateValues = Locked(0)
                    let previous = Unsynchronized(-1)
                    let observation = chain.observeValues { value in
                        if returned.isSet { lateValues.increment(by: 1) }
                        // One sender, so an observer sees one unbroken run of its values.
                        if previous.value >= 0 && value != previous.value + 1 { gaps.increment(by: 1) }
                        previous.value = value
                    }
                    observers.increment(by: 1)
                    observation.dispose()
                    returned.set()
                    mostLateValues.withLock { $0 = max($0, lateValues.value) }
                }
            }
        }
        #expect(finished, "deadlock: the sender and the observer did not finish")
        #expect(observers.value > 0)
        #expect(gaps.value == 0)
        // A callout that passed its check before `dispose()` returned may still be running when it does:
        // at most that one value, never a later one.
        #expect(mostLateValues.value <= 1)
    }
}
