import Reactive
import TestSupport
import Testing

@Suite("skipRepeats")
struct SkipRepeatsTests {
    @Test("skipRepeats drops values equal to the last forwarded one", arguments: Terminal.allCases)
    func equatable(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.skipRepeats().record()
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { input.send(value: value) }
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), .value(2), .value(1), .value(3), terminal.event()])
    }

    @Test("skipRepeats with a predicate compares with the last forwarded value, not the last received")
    func predicate() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let calls = Locked<[[Int]]>([])
        let recorder = signal.skipRepeats { previous, next in
            calls.append([previous, next])
            return abs(previous - next) <= 1
        }.record()
        for value in [0, 1, 2, 5] { input.send(value: value) }
        input.sendCompleted()
        #expect(recorder.events == [.value(0), .value(2), .value(5), .completed])
        #expect(calls.value == [[0, 1], [0, 2], [2, 5]])
    }

    @Test("skipRepeats keeps nil as a value of an optional signal")
    func optionals() {
        let (signal, input) = Signal<Int?, Never>.pipe()
        let recorder = signal.skipRepeats().record()
        for value in [nil, nil, 1, nil] { input.send(value: value) }
        #expect(recorder.values == [nil, 1, nil])
    }

    @Test("every run of the producer overload starts afresh")
    func producer() {
        let producer = SignalProducer<Int, ProbeError>(values: [1, 1, 2]).skipRepeats()
        #expect(producer.record().0.events == [.value(1), .value(2), .completed])
        #expect(producer.record().0.events == [.value(1), .value(2), .completed])
        let byPredicate = SignalProducer<Int, ProbeError>(values: [1, 3, 4]).skipRepeats { $1 - $0 == 1 }
        #expect(byPredicate.record().0.events == [.value(1), .value(3), .completed])
    }

    @Test("R8: skipRepeats frees its predicate and its run", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in
                s.skipRepeats { _, _ in
                    _ = token; return false
                }
            } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.skipRepeats { _, _ in
                    _ = token; return false
                }
            } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.skipRepeats() } == .clean)
    }
}
