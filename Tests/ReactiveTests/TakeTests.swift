import Reactive
import TestSupport
import Testing

@Suite("take(first:), take(until:), take(during:), take(while:)")
struct TakeTests {
    @Test("take(first:) forwards the first values and completes right after the last of them")
    func takeFirst() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.take(first: 2).record()
        for value in 1...4 { input.send(value: value) }
        input.send(error: .boom)
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test("take(first:) passes a terminal event that comes before the count", arguments: Terminal.allCases)
    func takeFirstEarlyTerminal(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.take(first: 3).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
    }

    @Test("take(first: 0) has completed before anyone observes; the producer never starts its work")
    func takeZero() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.take(first: 0).record()
        input.send(value: 1)
        #expect(recorder.events == [.completed])
        let probe = ProducerProbe()
        #expect(probe.producer.take(first: 0).record().0.events == [.completed])
        #expect(probe.runs.isEmpty)
    }

    @Test("R1: a take(first: 5) feedback loop drains iteratively on a 256 KiB stack")
    func R1_feedbackLoop() {
        let recorder = EventRecorder<Int, Never>()
        let upstream = Locked<[Int]>([])
        let finished = finishesWithin(seconds: 30, stackSize: 256 * 1024) {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.observeValues { upstream.append($0) }
            let mapped = signal.take(first: 5).map { $0 + 1 }
            mapped.observe(recorder.observer)
            mapped.observeValues(input.send(value:))
            input.send(value: 1)
        }
        #expect(finished)
        #expect(recorder.events == [.value(2), .value(3), .value(4), .value(5), .value(6), .completed])
        #expect(upstream.value == [1, 2, 3, 4, 5, 6])
    }

    @Test("take(first:) on a producer interrupts the upstream run once it has its values")
    func takeFirstProducer() {
        let probe = ProducerProbe()
        let (recorder, _) = probe.producer.take(first: 1).record()
        probe.runs[0].observer.send(value: 7)
        #expect(recorder.events == [.value(7), .completed])
        #expect(probe.allRunsEnded)
        #expect(SignalProducer<Int, ProbeError>(values: 1...100).take(first: 3).record().0.values == [1, 2, 3])
    }

    @Test("take(until:) completes at the trigger's first value or completion and ignores its interruption")
    func takeUntilSignal() {
        for triggerEvent in [Signal<Void, Never>.Event.value(()), .completed, .interrupted] {
            let (signal, input) = Signal<Int, ProbeError>.pipe()
            let (trigger, triggerInput) = Signal<Void, Never>.pipe()
            let recorder = signal.take(until: trigger).record()
            input.send(value: 1)
            triggerInput.send(triggerEvent)
            input.send(value: 2)
            if case .interrupted = triggerEvent {
                #expect(recorder.events == [.value(1), .value(2)])
            } else {
                #expect(recorder.events == [.value(1), .completed])
            }
        }
    }

    @Test("take(until:) passes this signal's terminal event", arguments: Terminal.allCases)
    func takeUntilTerminal(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let (trigger, _) = Signal<Void, Never>.pipe()
        let recorder = signal.take(until: trigger).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
    }

    @Test("take(until:) a producer starts the trigger first; a trigger that fires at once prevents the work")
    func takeUntilProducer() {
        let probe = ProducerProbe()
        #expect(probe.producer.take(until: SignalProducer<Void, Never>(value: ())).record().0.events == [.completed])
        #expect(probe.runs.isEmpty)

        let triggers = Signal<Void, Never>.pipe()
        let (recorder, _) = probe.producer.take(
            until: SignalProducer<Void, Never> { observer, lifetime in
                lifetime += triggers.output.observe(observer)
            }
        ).record()
        probe.runs[0].observer.send(value: 1)
        triggers.input.send(value: ())
        #expect(recorder.events == [.value(1), .completed])
        #expect(probe.allRunsEnded)

        let (signalTriggered, _) = probe.producer.take(until: triggers.output).record()
        triggers.input.sendCompleted()
        #expect(signalTriggered.events == [.completed])
    }

    @Test("take(during:) completes when the lifetime ends, and at once for an ended lifetime")
    func takeDuring() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        var (lifetime, token): (Lifetime, Lifetime.Token?) = Lifetime.make()
        let recorder = signal.take(during: lifetime).record()
        input.send(value: 1)
        token = nil
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .completed])
        #expect(token == nil)
        #expect(signal.take(during: .ended).record().events == [.completed])
        (lifetime, token) = Lifetime.make()
        let (producerRecorder, _) = SignalProducer<Int, ProbeError>.never.take(during: lifetime).record()
        token?.dispose()
        #expect(producerRecorder.events == [.completed])
    }

    @Test("take(during:) passes this signal's terminal event", arguments: Terminal.allCases)
    func takeDuringTerminal(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let (lifetime, token) = Lifetime.make()
        let recorder = signal.take(during: lifetime).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
        withExtendedLifetime(token) {}
    }

    @Test("R8: take(during:) drops its registration on the lifetime once it terminates")
    func R8_takeDuringReleasesRegistration() {
        let tracker = LifetimeTracker()
        let (lifetime, token) = Lifetime.make()
        do {
            let (signal, input) = Signal<Int, ProbeError>.pipe()
            let tracked = tracker.instance()
            signal.take(during: lifetime).observe { _ in _ = tracked }
            input.sendCompleted()
        }
        #expect(tracker.live == 0)
        withExtendedLifetime(token) {}
    }

    @Test("take(while:) completes at the first rejected value, which is dropped")
    func takeWhile() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let calls = Locked<[Int]>([])
        let recorder = signal.take(while: { value in
            calls.append(value)
            return value < 3
        }).record()
        for value in [1, 2, 3, 1] { input.send(value: value) }
        #expect(recorder.events == [.value(1), .value(2), .completed])
        #expect(calls.value == [1, 2, 3])
        #expect(
            SignalProducer<Int, ProbeError>(values: [5, 6, 1]).take(while: { $0 > 4 }).record().0.values == [5, 6])
    }

    @Test("take(while:) passes a terminal event", arguments: Terminal.allCases)
    func takeWhileTerminal(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.take(while: { _ in true }).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
    }

    @Test("R8: the take family frees its closures, triggers and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { s, _, _ in s.take(first: 3) } == .clean)
        #expect(
            leakReport(ending) { s, trigger, _ in s.take(until: trigger.map { _ in () }.flatMapError { _ in .never }) }
                == .clean)
        #expect(
            leakReport(ending) { s, _, token in
                s.take(while: { _ in
                    _ = token; return true
                })
            } == .clean)
        let (lifetime, lifetimeToken) = Lifetime.make()
        #expect(leakReport(ending) { s, _, _ in s.take(during: lifetime) } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.take(first: 3) } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.take(while: { _ in
                    _ = token; return true
                })
            } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.take(during: lifetime) } == .clean)
        withExtendedLifetime(lifetimeToken) {}
    }

    @Test("take(first:) traps on a negative count, naming it")
    func negativeCountTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.pipe().output.take(first: -1)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("take(first:)"))
    }
}

@Suite("skip(first:), skip(while:)")
struct SkipTests {
    @Test("skip(first:) drops the first values and forwards the rest", arguments: Terminal.allCases)
    func skipFirst(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.skip(first: 2).record()
        for value in 1...4 { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(3), .value(4), terminal.event()])
    }

    @Test("skip(first:) passes a terminal event before the count, and skip(first: 0) forwards everything")
    func skipFirstEdges() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let early = signal.skip(first: 5).record()
        let none = signal.skip(first: 0).record()
        input.send(value: 1)
        input.send(error: .boom)
        #expect(early.events == [.failed(.boom)])
        #expect(none.events == [.value(1), .failed(.boom)])
    }

    @Test("skip(while:) drops until the first rejected value and never asks again", arguments: Terminal.allCases)
    func skipWhile(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let calls = Locked<[Int]>([])
        let recorder = signal.skip(while: { value in
            calls.append(value)
            return value < 3
        }).record()
        for value in [1, 2, 3, 1, 5] { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(3), .value(1), .value(5), terminal.event()])
        #expect(calls.value == [1, 2, 3])
    }

    @Test("the skip producer overloads start afresh for every run")
    func producers() {
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2, 3])
        #expect(producer.skip(first: 1).record().0.events == [.value(2), .value(3), .completed])
        #expect(producer.skip(first: 1).record().0.events == [.value(2), .value(3), .completed])
        #expect(producer.skip(while: { $0 < 3 }).record().0.events == [.value(3), .completed])
    }

    @Test("R8: the skip family frees its closures and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { s, _, _ in s.skip(first: 1) } == .clean)
        #expect(
            leakReport(ending) { s, _, token in
                s.skip(while: { _ in
                    _ = token; return false
                })
            } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.skip(first: 1) } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.skip(while: { _ in
                    _ = token; return false
                })
            } == .clean)
    }

    @Test("skip(first:) traps on a negative count, naming it")
    func negativeCountTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.skip(first: -1)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("skip(first:)"))
    }
}
