import Reactive
import TestSupport
import Testing

/// A producer that counts its starts and the ends of its runs, sends 1 and keeps its observer only for
/// the duration of its start.
private final class CountingWork: Sendable {
    let starts = Locked(0)
    let ended = Locked(0)
    let tracker = LifetimeTracker()

    var producer: SignalProducer<Int, Never> {
        SignalProducer { [starts, ended, tracker] observer, lifetime in
            starts.increment(by: 1)
            let captured = tracker.instance()
            lifetime.observeEnded {
                withExtendedLifetime(captured) {}
                ended.increment(by: 1)
            }
            observer.send(value: 1)
        }
    }
}

@Suite("startWithSignal runs the work")
struct StartWithSignalTests {
    @Test("R19: a setup that neither observes nor keeps the signal still runs the work, and cleans up once")
    func R19_setupDropsEverything() {
        let work = CountingWork()
        work.producer.startWithSignal { _, _ in }
        #expect(work.starts.value == 1)
        #expect(work.ended.value == 1)
        #expect(work.tracker.live == 0)
    }

    @Test("R19: a setup that keeps only the interrupter runs the work; disposing it ends the run once")
    func R19_setupKeepsTheInterrupter() {
        let work = CountingWork()
        let interrupter = work.producer.startWithSignal { _, interrupter in interrupter }
        #expect(work.starts.value == 1)
        #expect(work.ended.value == 0)
        interrupter.dispose()
        interrupter.dispose()
        #expect(work.ended.value == 1)
        #expect(work.tracker.live == 0)
    }

    @Test("R19: a setup that disposes the interrupter starts nothing (R9 unchanged)")
    func R19_setupDisposes() {
        let work = CountingWork()
        let recorder = work.producer.startWithSignal { signal, interrupter in
            let recorder = signal.record()
            interrupter.dispose()
            return recorder
        }
        #expect(work.starts.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test("R19: start() with no observer runs the work")
    func R19_plainStart() {
        let work = CountingWork()
        work.producer.start()
        #expect(work.starts.value == 1)
    }

    @Test("R19: a run whose observer is kept by the work sends later to nobody, and dispose ends it")
    func R19_laterSendsGoNowhere() {
        let kept = Locked<Signal<Int, Never>.Observer?>(nil)
        let ended = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            kept.value = observer
            lifetime.observeEnded { ended.increment(by: 1) }
        }
        let interrupter = producer.startWithSignal { _, interrupter in interrupter }
        kept.value?.send(value: 1)
        kept.value?.send(value: 2)
        #expect(ended.value == 0)
        interrupter.dispose()
        #expect(ended.value == 1)
        kept.value?.send(value: 3)
        kept.value = nil
        #expect(ended.value == 1)
    }

    @Test("R19: the signal of such a run is not observed by anyone and is freed with the run")
    func R19_runFreed() {
        let work = CountingWork()
        let leaks = LeakCheck()
        work.producer.startWithSignal { signal, interrupter in
            leaks.track(signal, "signal")
            leaks.track(interrupter as AnyObject & Sendable, "interrupter")
        }
        #expect(leaks.survivors == [])
        #expect(work.ended.value == 1)
    }

    @Test("R19: 4 threads x 1,000 starts whose setup drops everything all run and end (threads, barrier)")
    func R19_dropEverythingStress() {
        let work = CountingWork()
        let leaks = LeakCheck()
        raceFromBarrier(threads: 4) { _ in
            for _ in 0..<1_000 {
                work.producer.startWithSignal { signal, _ in
                    leaks.track(signal, "signal")
                }
            }
        }
        #expect(work.starts.value == 4_000)
        #expect(work.ended.value == 4_000)
        #expect(work.tracker.live == 0)
        #expect(leaks.survivors.isEmpty)
    }
}
