import Reactive
import TestSupport
import Testing

@Suite("skip(until:)")
struct SkipUntilTests {
    @Test("skip(until:) drops values until the trigger's first value, then forwards everything")
    func skipUntilHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let (trigger, triggerInput) = Signal<Void, Never>.pipe()
        let recorder = source.skip(until: trigger).record()
        input.send(value: 1)
        triggerInput.send(value: ())
        input.send(value: 2)
        triggerInput.sendInterrupted()
        input.send(value: 3)
        input.sendCompleted()
        #expect(recorder.events == [.value(2), .value(3), .completed])
    }

    @Test("a completing trigger opens the gate; an interrupted one never does; terminals always pass")
    func triggerTerminals() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let (completing, completingInput) = Signal<Int, Never>.pipe()
        let (interrupted, interruptedInput) = Signal<Int, Never>.pipe()
        let opened = source.skip(until: completing).record()
        let closed = source.skip(until: interrupted).record()
        completingInput.sendCompleted()
        interruptedInput.sendInterrupted()
        input.send(value: 1)
        input.send(error: .boom)
        #expect(opened.events == [.value(1), .failed(.boom)])
        #expect(closed.events == [.failed(.boom)])
    }

    @Test("producer forms: a trigger producer starts per run, before the source")
    func producers() {
        let source = SignalProducer<Int, ProbeError>(values: [1, 2])
        #expect(
            source.skip(until: SignalProducer<Int, Never>(value: 0)).record().0.events == [
                .value(1), .value(2), .completed,
            ])
        #expect(source.skip(until: SignalProducer<Int, Never>.never).record().0.events == [.completed])
        let (trigger, triggerInput) = Signal<Int, Never>.pipe()
        let (pipeSource, pipeInput) = Signal<Int, ProbeError>.pipe()
        let producer = SignalProducer<Int, ProbeError> { observer, lifetime in
            lifetime += pipeSource.observe(observer)
        }
        let (recorder, _) = producer.skip(until: trigger).record()
        pipeInput.send(value: 1)
        triggerInput.send(value: 0)
        pipeInput.send(value: 2)
        #expect(recorder.events == [.value(2)])
    }

    @Test("R8: skip(until:) frees everything whichever way its run ends", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.skip(until: neverFailing(b)) } == .clean)
    }
}
