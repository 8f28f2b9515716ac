import Reactive
import TestSupport
import Testing

private enum TestError: Error, Equatable { case boom }

/// What a run's side effects report, in order: `on`'s start, its events, its end.
private enum Step: Equatable, Sendable {
    case starting, started, value(Int), completed, interrupted, disposed
}

/// A log of the steps of one run and a producer whose lifetime holds `added` (it sends nothing and keeps
/// no reference to its observer), wrapped in `on` so that its run's signal feeds another run.
private final class HoldingWork: Sendable {
    let steps = Locked<[Step]>([])
    let added = AnyDisposable()
    let tracker = LifetimeTracker()

    var source: SignalProducer<Int, TestError> {
        SignalProducer { [added, tracker] _, lifetime in
            let captured = tracker.instance()
            lifetime += added
            lifetime.observeEnded { withExtendedLifetime(captured) {} }
        }
    }

    func logged(_ producer: SignalProducer<Int, TestError>) -> SignalProducer<Int, TestError> {
        producer.on(
            starting: { [steps] in steps.append(.starting) },
            started: { [steps] in steps.append(.started) },
            event: { [steps] event in
                switch event {
                case .value(let value): steps.append(.value(value))
                case .completed: steps.append(.completed)
                case .interrupted: steps.append(.interrupted)
                case .failed: break
                }
            },
            disposed: { [steps] in steps.append(.disposed) }
        )
    }
}

@Suite("startWithSignal ends a run nobody can observe")
struct StartWithSignalLifetimeTests {
    @Test("a run nobody observes or keeps once its setup returns runs its work, then is disposed")
    func unkeptRunIsDisposed() {
        let work = HoldingWork()
        work.logged(work.source).startWithSignal { _, _ in }
        #expect(work.steps.value == [.starting, .started, .interrupted, .disposed])
        #expect(work.added.isDisposed)
        #expect(work.tracker.live == 0)
    }

    @Test("a fused run nobody observes or keeps is disposed, and its source run with it")
    func unkeptFusedRunIsDisposed() {
        let work = HoldingWork()
        let interrupted = Locked(0)
        work.source.on(interrupted: { interrupted.increment(by: 1) }).map { $0 * 2 }.startWithSignal { _, _ in }
        #expect(interrupted.value == 1)
        #expect(work.added.isDisposed)
        #expect(work.tracker.live == 0)
    }

    @Test("a constant producer's unkept run delivers its value and completes, and is not interrupted")
    func unkeptConstantRunCompletes() {
        let work = HoldingWork()
        work.logged(SignalProducer(value: 1)).startWithSignal { _, _ in }
        #expect(work.steps.value == [.starting, .value(1), .completed, .disposed, .started])
        work.logged(SignalProducer(value: 2).map { $0 * 10 }).startWithSignal { _, _ in }
        #expect(work.steps.value.suffix(5) == [.starting, .value(20), .completed, .disposed, .started])
    }

    @Test("the signal, the interrupter and what the work captured of an unkept run are freed")
    func unkeptRunIsFreed() {
        let work = HoldingWork()
        let leaks = LeakCheck()
        work.logged(work.source).startWithSignal { signal, interrupter in
            leaks.track(signal, "signal")
            leaks.track(interrupter as AnyObject & Sendable, "interrupter")
        }
        #expect(leaks.survivors == [])
        #expect(work.tracker.live == 0)
        #expect(work.added.isDisposed)
    }

    @Test("a setup that keeps the signal and observes it later gets every later event")
    func keptSignalObservedLater() {
        let kept = Locked<Signal<Int, TestError>.Observer?>(nil)
        let added = AnyDisposable()
        let producer = SignalProducer<Int, TestError> { observer, lifetime in
            kept.value = observer
            lifetime += added
            observer.send(value: 1)
        }
        let box = Locked<Signal<Int, TestError>?>(nil)
        producer.startWithSignal { signal, _ in box.value = signal }
        #expect(!added.isDisposed)
        let recorder = box.value?.record()
        box.value = nil
        kept.value?.send(value: 2)
        kept.value?.send(value: 3)
        kept.value?.sendCompleted()
        #expect(recorder?.events == [.value(2), .value(3), .completed])
        #expect(added.isDisposed)
        kept.value = nil
    }

    @Test("a kept signal released without being observed ends its run")
    func keptSignalReleasedUnobserved() {
        let work = HoldingWork()
        let box = Locked<Signal<Int, TestError>?>(nil)
        work.logged(work.source).startWithSignal { signal, _ in box.value = signal }
        #expect(work.steps.value == [.starting, .started])
        #expect(!work.added.isDisposed)
        box.value = nil
        #expect(work.steps.value == [.starting, .started, .interrupted, .disposed])
        #expect(work.added.isDisposed)
        #expect(work.tracker.live == 0)
    }

    @Test("a kept interrupter keeps the run until it is disposed, or released without being disposed")
    func keptInterrupter() {
        let disposedWork = HoldingWork()
        let interrupter = disposedWork.logged(disposedWork.source).startWithSignal { _, interrupter in interrupter }
        #expect(disposedWork.steps.value == [.starting, .started])
        interrupter.dispose()
        #expect(disposedWork.steps.value == [.starting, .started, .interrupted, .disposed])
        #expect(disposedWork.added.isDisposed)

        let releasedWork = HoldingWork()
        let box = Locked<(any Disposable)?>(nil)
        releasedWork.logged(releasedWork.source).startWithSignal { _, interrupter in box.value = interrupter }
        #expect(releasedWork.steps.value == [.starting, .started])
        #expect(!releasedWork.added.isDisposed)
        box.value = nil
        #expect(releasedWork.steps.value == [.starting, .started, .interrupted, .disposed])
        #expect(releasedWork.added.isDisposed)
        #expect(releasedWork.tracker.live == 0)
    }

    @Test("a run observed by its setup runs until its last observation is disposed, then ends")
    func observedUntilDisposed() {
        let work = HoldingWork()
        let box = Locked<(any Disposable)?>(nil)
        let recorder = EventRecorder<Int, TestError>()
        work.logged(work.source).startWithSignal { signal, _ in box.value = signal.observe(recorder.observer) }
        #expect(work.steps.value == [.starting, .started])
        #expect(!work.added.isDisposed)
        box.value?.dispose()
        #expect(work.steps.value == [.starting, .started, .interrupted, .disposed])
        #expect(recorder.events == [])
        #expect(work.added.isDisposed)
        box.value = nil
        #expect(work.tracker.live == 0)
    }

    @Test("a setup that disposes its interrupter starts nothing, and its run is freed")
    func setupDisposes() {
        let work = HoldingWork()
        let leaks = LeakCheck()
        let isDisposed = work.logged(work.source).startWithSignal { signal, interrupter -> Bool in
            leaks.track(signal, "signal")
            leaks.track(interrupter as AnyObject & Sendable, "interrupter")
            interrupter.dispose()
            interrupter.dispose()
            return interrupter.isDisposed
        }
        #expect(isDisposed)
        #expect(work.steps.value == [])
        #expect(!work.added.isDisposed)
        #expect(work.tracker.created == 0)
        #expect(leaks.survivors == [])
    }

    @Test("4 threads x 1,000 unkept runs of a work that holds its input all end, once each (threads)")
    func unkeptRunStress() {
        let ended = Locked(0)
        let tracker = LifetimeTracker()
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            let captured = tracker.instance()
            // The run's lifetime holds its own input: only its disposal can end it.
            lifetime.observeEnded {
                withExtendedLifetime((captured, observer)) {}
                ended.increment(by: 1)
            }
        }
        raceFromBarrier(threads: 4) { _ in
            for _ in 0..<1_000 {
                producer.startWithSignal { _, _ in }
            }
        }
        #expect(ended.value == 4_000)
        #expect(tracker.live == 0)
    }
}
