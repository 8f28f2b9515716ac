import Reactive
import TestSupport
import Testing

@Suite("filter, compactMap, skipNil")
struct FilterTests {
    @Test("filter forwards the values it accepts, then the terminal event", arguments: Terminal.allCases)
    func filterHistory(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.filter { $0.isMultiple(of: 2) }.record()
        for value in 1...5 { input.send(value: value) }
        terminal.send(to: input)
        input.send(value: 6)
        #expect(recorder.events == [.value(2), .value(4), terminal.event()])
    }

    @Test("compactMap forwards the non-nil results, then the terminal event", arguments: Terminal.allCases)
    func compactMapHistory(terminal: Terminal) {
        let (signal, input) = Signal<String, ProbeError>.pipe()
        let recorder = signal.compactMap { Int($0) }.record()
        for text in ["1", "x", "3"] { input.send(value: text) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), .value(3), terminal.event()])
    }

    @Test("skipNil unwraps the non-nil values, then the terminal event", arguments: Terminal.allCases)
    func skipNilHistory(terminal: Terminal) {
        let (signal, input) = Signal<Int?, ProbeError>.pipe()
        let recorder = signal.skipNil().record()
        for value in [1, nil, 3, nil] { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), .value(3), terminal.event()])
    }

    @Test("the producer overloads filter, compactMap and skipNil every run")
    func producerOverloads() {
        let numbers = SignalProducer<Int, ProbeError>(values: [1, 2, 3, 4])
        #expect(numbers.filter { $0 > 2 }.record().0.events == [.value(3), .value(4), .completed])
        #expect(
            numbers.compactMap { $0 == 2 ? nil : $0 * 10 }.record().0.events == [
                .value(10), .value(30), .value(40), .completed,
            ])
        let optionals = SignalProducer<Int?, ProbeError>(values: [nil, 7, nil])
        #expect(optionals.skipNil().record().0.events == [.value(7), .completed])
        #expect(
            SignalProducer<Int, ProbeError>(error: .boom).filter { _ in true }.record().0.events == [.failed(.boom)])
    }

    @Test("a disposed filter run interrupts its upstream run")
    func producerDisposal() {
        let probe = ProducerProbe()
        let (recorder, disposable) = probe.producer.filter { _ in true }.record()
        probe.runs[0].observer.send(value: 1)
        disposable.dispose()
        probe.runs[0].observer.send(value: 2)
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(probe.allRunsEnded)
    }

    @Test("R8: filter, compactMap and skipNil free their closures and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { signal, _, token in
                signal.filter { _ in
                    _ = token; return true
                }
            } == .clean)
        #expect(
            leakReport(ending) { signal, _, token in
                signal.compactMap {
                    _ = token; return $0
                }
            } == .clean)
        #expect(
            leakReport(ending) { signal, _, token in
                signal.map { v -> Int? in
                    _ = token; return v
                }.skipNil()
            } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.filter { _ in
                    _ = token; return true
                }
            } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.compactMap {
                    _ = token; return $0
                }
            } == .clean)
    }
}
