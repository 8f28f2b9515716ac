import Reactive
import TestSupport
import Testing

@Suite("reduce, take(last:)")
struct ReduceTests {
    @Test("reduce sends one result on completion; initial for an empty signal")
    func reduceHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.reduce(0, +).record()
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(recorder.events == [])
        input.sendCompleted()
        #expect(recorder.events == [.value(6), .completed])
        #expect(SignalProducer<Int, ProbeError>.empty.reduce(5, +).record().0.events == [.value(5), .completed])
        let collected = SignalProducer<Int, ProbeError>(values: [1, 2]).reduce(into: [Int]()) { $0.append($1) }
        #expect(collected.record().0.events == [.value([1, 2]), .completed])
    }

    @Test("reduce drops the result on a failure or interruption", arguments: [Terminal.failed, .interrupted])
    func reduceTerminals(terminal: Terminal) {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.reduce(0, +).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [terminal.event()])
    }

    @Test("each producer run reduces from the initial value")
    func reducePerRun() {
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2]).reduce(10, +)
        #expect(producer.record().0.events == [.value(13), .completed])
        #expect(producer.record().0.events == [.value(13), .completed])
    }

    @Test("take(last:) sends the last values in order on completion")
    func takeLastHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.take(last: 2).record()
        for value in 1...5 { input.send(value: value) }
        #expect(recorder.events == [])
        input.sendCompleted()
        #expect(recorder.events == [.value(4), .value(5), .completed])
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2])
        #expect(producer.take(last: 5).record().0.events == [.value(1), .value(2), .completed])
        #expect(producer.take(last: 0).record().0.events == [.completed])
    }

    @Test("take(last:) drops its values on a failure or interruption", arguments: [Terminal.failed, .interrupted])
    func takeLastTerminals(terminal: Terminal) {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let recorder = source.take(last: 1).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [terminal.event()])
    }

    @Test("take(last:) traps on a negative count, naming it")
    func takeLastNegativeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.take(last: -1)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("take(last:)"))
    }

    @Test("R8: reduce and take(last:) free everything whichever way their run ends", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in
                s.reduce(0) { sum, value in
                    _ = token
                    return sum + value
                }
            } == .clean)
        #expect(leakReport(ending) { s, _, _ in s.take(last: 2) } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.take(last: 2) } == .clean)
    }
}
