import Reactive
import TestSupport
import Testing

/// A second input that cannot fail, made from a probe.
func neverFailing(_ signal: Signal<Int, ProbeError>) -> Signal<Int, Never> {
    signal.materialize().compactMap { $0.value }
}

@Suite("withLatest(from:)")
struct WithLatestTests {
    @Test("withLatest pairs each value with the samplee's latest, dropping values before its first")
    func withLatestHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let (samplee, sampleeInput) = Signal<Int, Never>.pipe()
        let recorder = source.withLatest(from: samplee).map { $0 * 100 + $1 }.record()
        input.send(value: 1)
        sampleeInput.send(value: 5)
        input.send(value: 2)
        input.send(value: 3)
        sampleeInput.send(value: 6)
        sampleeInput.sendCompleted()
        input.send(value: 4)
        input.sendCompleted()
        #expect(recorder.events == [.value(205), .value(305), .value(406), .completed])
    }

    @Test("withLatest passes this signal's failure and interruption", arguments: [Terminal.failed, .interrupted])
    func withLatestTerminals(terminal: Terminal) {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.withLatest(from: SignalProducer<Int, Never>(value: 7)).map { $0 + $1 }.record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(8), terminal.event()])
    }

    @Test("producer forms: each run pairs with the samplee's latest; a samplee producer starts per run")
    func producers() {
        let samplee = MutableProperty(10)
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2])
        #expect(
            producer.withLatest(from: samplee.producer).map { $0 + $1 }.record().0.events
                == [.value(11), .value(12), .completed])
        let (signal, input) = Signal<Int, Never>.pipe()
        let (recorder, disposable) = producer.concat(.never).withLatest(from: signal).map { $0 + $1 }.record()
        input.send(value: 5)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
    }

    @Test("R8: withLatest frees everything whichever way its run ends", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.withLatest(from: neverFailing(b)).map { $0 + $1 } } == .clean)
    }
}
