import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Disposables")
struct DisposableTests {
    @Test("R9: AnyDisposable runs its cleanup exactly once over three disposes")
    func R9_anyDisposableRunsOnce() {
        let count = Locked(0)
        let disposable = AnyDisposable { count.increment(by: 1) }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        disposable.dispose()
        #expect(count.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test("R9: a composite disposes each member exactly once, in the order added, over three disposes")
    func R9_compositeDisposesOnceInOrder() {
        let log = Locked<[Int]>([])
        let composite = CompositeDisposable()
        for index in 0..<3 {
            composite += { log.append(index) }
        }
        composite.dispose()
        composite.dispose()
        composite.dispose()
        #expect(log.value == [0, 1, 2])
        #expect(composite.isDisposed)
    }

    @Test("R9: a disposable added after the composite was disposed is disposed at once")
    func R9_addAfterDisposeDisposesAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = AnyDisposable()
        let handle = composite.add(late)
        #expect(late.isDisposed)
        #expect(handle == nil)
        let ran = Locked(0)
        composite += { ran.increment(by: 1) }
        #expect(ran.value == 1)
    }

    @Test("R9: the handle add returns removes the member without disposing it")
    func R9_removalHandle() {
        let composite = CompositeDisposable()
        let kept = AnyDisposable()
        let removed = AnyDisposable()
        composite += kept
        let handle = composite.add(removed)
        handle?.dispose()
        composite.dispose()
        #expect(kept.isDisposed)
        #expect(!removed.isDisposed)
    }

    @Test("R9: cleanup that re-enters the composite (dispose again, add) neither deadlocks nor runs twice")
    func R9_reentrantCleanup() {
        let log = Locked<[String]>([])
        let finished = finishesWithin(seconds: 10) {
            let composite = CompositeDisposable()
            composite += {
                log.append("first")
                composite.dispose()
                composite += { log.append("added during dispose") }
                _ = composite.isDisposed
            }
            composite += { log.append("second") }
            composite.dispose()
        }
        #expect(finished, "deadlock: a cleanup re-entered its composite")
        #expect(log.value == ["first", "added during dispose", "second"])
    }

    @Test("R9: 16 threads disposing from a barrier run the cleanup once (200 rounds)")
    func R9_concurrentDisposeRunsOnce() {
        for _ in 0..<200 {
            let count = Locked(0)
            let composite = CompositeDisposable()
            let plain = AnyDisposable { count.increment(by: 1) }
            composite += { count.increment(by: 1) }
            raceFromBarrier(threads: 16) { thread in
                if thread % 2 == 0 { composite.dispose() } else { plain.dispose() }
            }
            #expect(count.value == 2)
        }
    }

    @Test("R9: 16 threads adding while one disposes: every added disposable is disposed exactly once")
    func R9_concurrentAddWhileDisposing() {
        let perThread = 500
        let composite = CompositeDisposable()
        let counts = (0..<16 * perThread).map { _ in Locked(0) }
        raceFromBarrier(threads: 17) { thread in
            if thread == 16 {
                composite.dispose()
            } else {
                for index in 0..<perThread {
                    let count = counts[thread * perThread + index]
                    composite += { count.increment(by: 1) }
                }
            }
        }
        #expect(counts.allSatisfy { $0.value == 1 })
    }

    @Test("R9: setting a SerialDisposable's inner disposes the one it replaces; later ones after dispose at once")
    func R9_serialDisposable() {
        let first = AnyDisposable()
        let second = AnyDisposable()
        let third = AnyDisposable()
        let serial = SerialDisposable(first)
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
        #expect(serial.isDisposed)
        serial.inner = third
        #expect(third.isDisposed)
        #expect(serial.inner == nil)
    }

    @Test("R9: a ScopedDisposable disposes its inner disposable when it is released")
    func R9_scopedDisposable() {
        let inner = AnyDisposable()
        do {
            let scoped = ScopedDisposable(inner)
            #expect(!scoped.isDisposed)
        }
        #expect(inner.isDisposed)
    }

    // MARK: Producer runs

    @Test("R9: a run disposed before its start closure would run triggers no effect and delivers interrupted")
    func R9_disposedBeforeClosureReturn() {
        let effects = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            effects.increment(by: 1)
            observer.send(value: 1)
        }
        let recorder = producer.startWithSignal { signal, interrupter -> EventRecorder<Int, Never> in
            let recorder = signal.record()
            interrupter.dispose()
            return recorder
        }
        #expect(effects.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test("R9: a run's added disposables are disposed on completion, failure, interruption and disposal")
    func R9_runResourcesDisposedOnEveryEnd() {
        enum Ending: CaseIterable { case completion, failure, interruption, disposal }
        struct Failure: Error, Equatable {}
        for ending in Ending.allCases {
            let resource = AnyDisposable()
            let input = Locked<Signal<Int, Failure>.Observer?>(nil)
            let producer = SignalProducer<Int, Failure> { observer, lifetime in
                lifetime += resource
                input.value = observer
            }
            let (recorder, disposable) = producer.record()
            #expect(!resource.isDisposed)
            switch ending {
            case .completion: input.value?.sendCompleted()
            case .failure: input.value?.send(error: Failure())
            case .interruption: input.value?.sendInterrupted()
            case .disposal: disposable.dispose()
            }
            #expect(resource.isDisposed, "resource kept after \(ending)")
            #expect(recorder.events.count == 1)
            #expect(recorder.isTerminated)
            input.value = nil
        }
    }

    @Test("R9: disposing a run from 16 threads at once interrupts it once and ends its lifetime once")
    func R9_concurrentRunDisposal() {
        for _ in 0..<100 {
            let ended = Locked(0)
            let producer = SignalProducer<Int, Never> { _, lifetime in
                lifetime.observeEnded { ended.increment(by: 1) }
            }
            let (recorder, disposable) = producer.record()
            raceFromBarrier(threads: 16) { _ in disposable.dispose() }
            #expect(recorder.events == [.interrupted])
            #expect(ended.value == 1)
        }
    }
}
