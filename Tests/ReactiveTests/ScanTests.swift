import Reactive
import TestSupport
import Testing

@Suite("scan, combinePrevious, collect")
struct ScanTests {
    @Test("scan sends every running accumulation, then the terminal event", arguments: Terminal.allCases)
    func scan(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.scan(10, +).record()
        for value in 1...3 { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(11), .value(13), .value(16), terminal.event()])
    }

    @Test("scan(into:) updates the accumulation in place")
    func scanInto() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.scan(into: [Int]()) { $0.append($1) }.record()
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(recorder.events == [.value([1]), .value([1, 2]), .completed])
    }

    @Test("every run of a scanning producer starts again from the initial value")
    func scanProducer() {
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2]).scan(0, +)
        #expect(producer.record().0.events == [.value(1), .value(3), .completed])
        #expect(producer.record().0.events == [.value(1), .value(3), .completed])
        let into = SignalProducer<Int, ProbeError>(values: [1, 2]).scan(into: 0) { $0 += $1 * 2 }
        #expect(into.record().0.events == [.value(2), .value(6), .completed])
    }

    @Test(
        "combinePrevious pairs each value with the one before, starting from the initial value",
        arguments: Terminal.allCases)
    func combinePreviousInitial(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.combinePrevious(0).map { [$0, $1] }.record()
        for value in 1...3 { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value([0, 1]), .value([1, 2]), .value([2, 3]), terminal.event()])
    }

    @Test("combinePrevious without an initial value starts at the second value")
    func combinePrevious() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.combinePrevious().map { [$0, $1] }.record()
        for value in 1...3 { input.send(value: value) }
        input.sendCompleted()
        #expect(recorder.events == [.value([1, 2]), .value([2, 3]), .completed])
        let producer = SignalProducer<Int, ProbeError>(values: [4, 5]).combinePrevious().map { [$0, $1] }
        #expect(producer.record().0.events == [.value([4, 5]), .completed])
        let withInitial = SignalProducer<Int, ProbeError>(value: 4).combinePrevious(9).map { [$0, $1] }
        #expect(withInitial.record().0.events == [.value([9, 4]), .completed])
    }

    @Test("collect sends every value as one array on completion, an empty one for no value")
    func collect() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.collect().record()
        for value in 1...3 { input.send(value: value) }
        #expect(recorder.events == [])
        input.sendCompleted()
        #expect(recorder.events == [.value([1, 2, 3]), .completed])
        #expect(SignalProducer<Int, ProbeError>.empty.collect().record().0.events == [.value([]), .completed])
    }

    @Test("collect drops the gathered values on failure or interruption", arguments: [Terminal.failed, .interrupted])
    func collectDropsOnFailure(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.collect().record()
        let counted = signal.collect(count: 2).record()
        for value in 1...3 { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [terminal.event()])
        #expect(counted.events == [.value([1, 2]), terminal.event()])
    }

    @Test("collect(count:) sends full arrays as they fill and the remainder on completion")
    func collectCount() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.collect(count: 2).record()
        for value in 1...5 { input.send(value: value) }
        input.sendCompleted()
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .value([5]), .completed])
        let even = SignalProducer<Int, ProbeError>(values: 1...4).collect(count: 2)
        #expect(even.record().0.events == [.value([1, 2]), .value([3, 4]), .completed])
        #expect(SignalProducer<Int, ProbeError>.empty.collect(count: 3).record().0.events == [.completed])
    }

    @Test("R8: scan, combinePrevious and collect free their closures and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in
                s.scan(0) {
                    _ = token; return $0 + $1
                }
            } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.combinePrevious().map { $0 + $1 } } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.collect() } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.collect(count: 2) } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.scan(0) {
                    _ = token; return $0 + $1
                }
            } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.collect() } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.combinePrevious(0).map { $0 + $1 } } == .clean)
    }

    @Test("collect(count:) traps on a count below 1, naming it")
    func collectCountTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int, Never>.pipe().output.collect(count: 0)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("collect(count:)"))
    }
}

@Suite("materialize, dematerialize")
struct MaterializeTests {
    @Test("materialize sends every event as a value and ends as the signal ended")
    func materialize() {
        for terminal in Terminal.allCases {
            let (signal, input) = Signal<Int, ProbeError>.pipe()
            let recorder = signal.materialize().record()
            input.send(value: 1)
            terminal.send(to: input)
            let ending: Signal<Signal<Int, ProbeError>.Event, Never>.Event =
                terminal == .interrupted ? .interrupted : .completed
            #expect(recorder.events == [.value(.value(1)), .value(terminal.event()), ending])
        }
    }

    @Test("dematerialize is the inverse of materialize on signals and producers")
    func roundTrip() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.materialize().dematerialize().record()
        input.send(value: 1)
        input.send(error: .boom)
        #expect(recorder.events == [.value(1), .failed(.boom)])
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2]).materialize()
        #expect(producer.record().0.values == [.value(1), .value(2), .completed])
        #expect(producer.dematerialize().record().0.events == [.value(1), .value(2), .completed])
    }

    @Test("dematerialize ends when the carrying signal ends")
    func dematerializeOuterEnd() {
        let (signal, input) = Signal<Signal<Int, ProbeError>.Event, Never>.pipe()
        let recorder = signal.dematerialize().record()
        input.send(value: .value(3))
        input.sendInterrupted()
        #expect(recorder.events == [.value(3), .interrupted])
    }

    @Test("R8: materialize frees its run", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { s, _, _ in s.materialize() } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.materialize().dematerialize() } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.materialize().dematerialize() } == .clean)
    }
}

@Suite("on(...) side effects")
struct OnTests {
    @Test(
        "on runs event, the kind's closure and terminated in that order before forwarding", arguments: Terminal.allCases
    )
    func signalEffects(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let log = Locked<[String]>([])
        let effects = signal.on(
            event: { log.append("event \($0)") },
            failed: { log.append("failed \($0)") },
            completed: { log.append("completed") },
            interrupted: { log.append("interrupted") },
            terminated: { log.append("terminated") },
            disposed: { log.append("disposed") },
            value: { log.append("value \($0)") }
        )
        effects.observe { log.append("observer \($0)") }
        input.send(value: 1)
        terminal.send(to: input)
        let kind = terminal == .failed ? "failed boom" : terminal.rawValue
        let terminalDescription = terminal == .failed ? "failed(boom)" : terminal.rawValue
        #expect(
            log.value == [
                "event value(1)", "value 1", "observer value(1)",
                "event \(terminalDescription)", kind, "terminated", "observer \(terminalDescription)", "disposed",
            ]
        )
    }

    @Test("on a producer runs starting before the work and started after it, once per run")
    func producerEffects() {
        let log = Locked<[String]>([])
        let producer = SignalProducer<Int, ProbeError> { observer, _ in
            log.append("work")
            observer.send(value: 1)
        }
        .on(
            starting: { log.append("starting") },
            started: { log.append("started") },
            value: { log.append("value \($0)") }
        )
        let (recorder, disposable) = producer.record()
        #expect(log.value == ["starting", "work", "value 1", "started"])
        disposable.dispose()
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test("on's disposed runs when a producer run is disposed, after interrupted")
    func disposedOnDisposal() {
        let log = Locked<[String]>([])
        let probe = ProducerProbe()
        let disposable = probe.producer.on(
            interrupted: { log.append("interrupted") },
            terminated: { log.append("terminated") },
            disposed: { log.append("disposed") }
        ).start()
        disposable.dispose()
        #expect(log.value == ["interrupted", "terminated", "disposed"])
        #expect(probe.allRunsEnded)
    }

    @Test("R8: on frees its closures and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in s.on(event: { _ in _ = token }, disposed: { _ = token }) } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.on(starting: { _ = token }, event: { _ in _ = token }, disposed: { _ = token })
            } == .clean
        )
    }
}
