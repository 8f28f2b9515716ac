import Reactive
import TestSupport
import Testing

@Suite("attemptMap")
struct AttemptMapTests {
    @Test("attemptMap maps values and fails with the thrown error, ignoring later values")
    func attemptMapHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.attemptMap { (value: Int) throws(ProbeError) -> Int in
            guard value < 3 else { throw .other }
            return value * 10
        }.record()
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        input.send(value: 1)
        #expect(recorder.events == [.value(10), .value(20), .failed(.other)])
    }

    @Test("attemptMap passes terminal events", arguments: Terminal.allCases)
    func attemptMapTerminals(terminal: Terminal) {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.attemptMap { (value: Int) throws(ProbeError) -> Int in value }.record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
    }

    @Test("a source that cannot fail gets the thrown error type; producers map every run")
    func neverFailingAndProducers() {
        let (source, input) = Signal<Int, Never>.pipe()
        let recorder = source.attemptMap { (value: Int) throws(ProbeError) -> Int in
            if value == 2 { throw .boom }
            return value
        }.record()
        input.send(value: 1)
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .failed(.boom)])
        let producer = SignalProducer<Int, Never>(values: [1, 2, 3]).attemptMap {
            (value: Int) throws(ProbeError) -> Int in
            if value == 3 { throw .other }
            return value
        }
        #expect(producer.record().0.events == [.value(1), .value(2), .failed(.other)])
        let failing = SignalProducer<Int, ProbeError>(value: 4).attemptMap { (value: Int) throws(ProbeError) in
            value + 1
        }
        #expect(failing.record().0.events == [.value(5), .completed])
    }

    @Test("R8: attemptMap frees everything whichever way its run ends", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in
                s.attemptMap { (value: Int) throws(ProbeError) -> Int in
                    _ = token
                    return value
                }
            } == .clean)
    }
}
