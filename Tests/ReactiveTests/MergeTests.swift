import Reactive
import TestSupport
import Testing

@Suite("merge")
struct MergeTests {
    @Test("merge forwards values as they arrive and completes when every input has completed")
    func values() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int, ProbeError>.pipe()
        let recorder = a.merge(with: b).record()
        aInput.send(value: 1)
        bInput.send(value: 2)
        aInput.sendCompleted()
        bInput.send(value: 3)
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
        bInput.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test("merge fails or is interrupted at the first input that does", arguments: [Terminal.failed, .interrupted])
    func earlyTerminal(terminal: Terminal) {
        let pipes = (0..<3).map { _ in Signal<Int, ProbeError>.pipe() }
        let recorder = Signal.merge(pipes[0].output, pipes[1].output, pipes[2].output).record()
        pipes[0].input.send(value: 1)
        terminal.send(to: pipes[1].input)
        pipes[2].input.send(value: 2)
        #expect(recorder.events == [.value(1), terminal.event()])
    }

    @Test("merge of an empty sequence completes at once")
    func empty() {
        #expect(Signal<Int, ProbeError>.merge([]).record().events == [.completed])
        #expect(SignalProducer<Int, ProbeError>.merge([]).record().0.events == [.completed])
    }

    @Test("the producer overloads start their inputs in order; disposal interrupts every run")
    func producers() {
        let merged = SignalProducer<Int, ProbeError>(values: [1, 2]).merge(with: SignalProducer(values: [3, 4]))
        #expect(merged.record().0.events == [.value(1), .value(2), .value(3), .value(4), .completed])
        let variadic = SignalProducer<Int, ProbeError>.merge(SignalProducer(value: 1), SignalProducer(value: 2))
        #expect(variadic.record().0.events == [.value(1), .value(2), .completed])

        let first = ProducerProbe()
        let second = ProducerProbe()
        let (recorder, disposable) = SignalProducer.merge([first.producer, second.producer]).record()
        second.runs[0].observer.send(value: 2)
        first.runs[0].observer.send(value: 1)
        disposable.dispose()
        #expect(recorder.events == [.value(2), .value(1), .interrupted])
        #expect(first.allRunsEnded && second.allRunsEnded)
    }

    @Test("a producer after a synchronously failing one never starts")
    func failureStopsStarting() {
        let later = ProducerProbe()
        let (recorder, _) = SignalProducer.merge([SignalProducer(error: .boom), later.producer]).record()
        #expect(recorder.events == [.failed(.boom)])
        #expect(later.runs.isEmpty)
    }

    @Test("R6: concurrent senders into every input: no value lost or duplicated, deliveries never overlap")
    func R6_stress() {
        let inputs = 4
        let perThread = 5_000
        let pipes = (0..<inputs).map { _ in Signal<Int, Never>.pipe() }
        let merged = Signal.merge(pipes.map(\.output))
        nonisolated(unsafe) var perSender = Array(repeating: [Int](), count: inputs)
        nonisolated(unsafe) var completions = 0
        let inFlight = Locked(0)
        let overlaps = Locked(0)
        merged.observe { event in
            if inFlight.withLock({ value -> Int in
                value += 1
                return value
            }) != 1 {
                overlaps.increment(by: 1)
            }
            switch event {
            case .value(let tagged): perSender[tagged / 1_000_000].append(tagged % 1_000_000)
            case .completed: completions += 1
            case .interrupted: break
            }
            inFlight.withLock { $0 -= 1 }
        }
        raceFromBarrier(threads: inputs) { thread in
            for value in 0..<perThread { pipes[thread].input.send(value: thread * 1_000_000 + value) }
            pipes[thread].input.sendCompleted()
        }
        #expect(overlaps.value == 0)
        #expect(completions == 1)
        for sender in 0..<inputs {
            #expect(perSender[sender] == Array(0..<perThread))
        }
    }

    @Test("R8: merge frees its state and stops observing its inputs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.merge(with: b) } == .clean)
        #expect(producerLeakReport(ending) { a, b, _ in a.merge(with: b) } == .clean)
    }
}
