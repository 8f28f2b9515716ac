import Reactive
import TestSupport
import Testing

@Suite("zip")
struct ZipTests {
    @Test("zip pairs the nth values of its inputs, buffering the faster one")
    func values() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<String, ProbeError>.pipe()
        let recorder = a.zip(with: b).map { "\($0)\($1)" }.record()
        aInput.send(value: 1)
        aInput.send(value: 2)
        aInput.send(value: 3)
        bInput.send(value: "x")
        bInput.send(value: "y")
        #expect(recorder.events == [.value("1x"), .value("2y")])
    }

    @Test("zip completes once a completed input's buffer is drained, right after the last pair")
    func completionAfterDrain() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int, ProbeError>.pipe()
        let recorder = Signal.zip(a, b).map { [$0, $1] }.record()
        aInput.send(value: 1)
        aInput.send(value: 2)
        aInput.sendCompleted()
        #expect(recorder.events == [])
        bInput.send(value: 10)
        #expect(recorder.events == [.value([1, 10])])
        bInput.send(value: 20)
        bInput.send(value: 30)
        #expect(recorder.events == [.value([1, 10]), .value([2, 20]), .completed])
    }

    @Test("zip completes at once when an input completes with an empty buffer")
    func completionWhenEmpty() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int, ProbeError>.pipe()
        let recorder = Signal.zip(a, b).map { [$0, $1] }.record()
        bInput.send(value: 5)
        aInput.sendCompleted()
        #expect(recorder.events == [.completed])
    }

    @Test("zip fails or is interrupted at once, dropping the buffers", arguments: [Terminal.failed, .interrupted])
    func earlyTerminal(terminal: Terminal) {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int, ProbeError>.pipe()
        let recorder = Signal.zip(a, b).map { [$0, $1] }.record()
        aInput.send(value: 1)
        aInput.send(value: 2)
        bInput.send(value: 3)
        terminal.send(to: bInput)
        aInput.send(value: 4)
        #expect(recorder.events == [.value([1, 3]), terminal.event()])
    }

    @Test("zip of three inputs and of a collection, and an empty collection")
    func arities() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int?, ProbeError>.pipe()
        let (c, cInput) = Signal<String, ProbeError>.pipe()
        let triples = Signal.zip(a, b, c).map { "\($0) \(String(describing: $1)) \($2)" }.record()
        aInput.send(value: 1)
        aInput.send(value: 2)
        bInput.send(value: nil)
        cInput.send(value: "c")
        #expect(triples.values == ["1 nil c"])

        let pipes = (0..<3).map { _ in Signal<Int, ProbeError>.pipe() }
        let arrays = Signal.zip(pipes.map(\.output)).record()
        for (index, pipe) in pipes.enumerated() { pipe.input.send(value: index) }
        pipes[2].input.sendCompleted()
        #expect(arrays.events == [.value([0, 1, 2]), .completed])

        #expect(Signal<Int, ProbeError>.zip([]).record().events == [.completed])
        #expect(SignalProducer<Int, ProbeError>.zip([]).record().0.events == [.completed])
    }

    @Test("the producer overloads start their inputs in order and end with the shortest")
    func producers() {
        let pairs = SignalProducer.zip(
            SignalProducer<Int, ProbeError>(values: [1, 2, 3]),
            SignalProducer<Int, ProbeError>(values: [10, 20])
        )
        #expect(pairs.map { [$0, $1] }.record().0.events == [.value([1, 10]), .value([2, 20]), .completed])
        let triples = SignalProducer.zip(
            SignalProducer<Int, ProbeError>(values: [1, 2]),
            SignalProducer<Int, ProbeError>(values: [3, 4]),
            SignalProducer<Int, ProbeError>(values: [5])
        )
        #expect(triples.map { [$0, $1, $2] }.record().0.events == [.value([1, 3, 5]), .completed])
        let arrays = SignalProducer.zip([
            SignalProducer<Int, ProbeError>(values: [1, 2]), SignalProducer(values: [3, 4]),
        ])
        #expect(arrays.record().0.events == [.value([1, 3]), .value([2, 4]), .completed])

        let first = ProducerProbe()
        let second = ProducerProbe()
        let (recorder, disposable) = first.producer.zip(with: second.producer).map { [$0, $1] }.record()
        first.runs[0].observer.send(value: 1)
        second.runs[0].observer.send(value: 2)
        disposable.dispose()
        #expect(recorder.events == [.value([1, 2]), .interrupted])
        #expect(first.allRunsEnded && second.allRunsEnded)
    }

    // MARK: R3: recursive termination, ported from ReactiveSwift's AggregateBuilder tests

    @Test("R3: no deadlock upon disposal (take(first: 1) disposes the inputs while delivering)")
    func R3_disposal() {
        let recorder = EventRecorder<[Int], Never>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, Never>.pipe()
            let (b, bInput) = Signal<Int, Never>.pipe()
            Signal.zip(a, b).take(first: 1).map { [$0, $1] }.observe(recorder.observer)
            aInput.send(value: 1)
            bInput.send(value: 2)
            aInput.send(value: 3)
            bInput.send(value: 4)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), .completed])
    }

    @Test("R3: no deadlock upon recursive completion of the sources")
    func R3_recursiveCompletion() {
        let recorder = EventRecorder<[Int], Never>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, Never>.pipe()
            let (b, bInput) = Signal<Int, Never>.pipe()
            let zipped = Signal.zip(a, b).map { [$0, $1] }
            zipped.observeValues { _ in aInput.sendCompleted() }
            zipped.observe(recorder.observer)
            aInput.send(value: 1)
            bInput.send(value: 2)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), .completed])
    }

    @Test(
        "R3: no deadlock upon recursive interruption or failure of the sources",
        arguments: [Terminal.failed, .interrupted])
    func R3_recursiveFailure(terminal: Terminal) {
        let recorder = EventRecorder<[Int], ProbeError>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, ProbeError>.pipe()
            let (b, bInput) = Signal<Int, ProbeError>.pipe()
            let zipped = Signal.zip(a, b).map { [$0, $1] }
            zipped.observeResult { _ in terminal.send(to: aInput) }
            zipped.observe(recorder.observer)
            aInput.send(value: 1)
            bInput.send(value: 2)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), terminal.event()])
    }

    @Test("R3: a deinit run inside a callback that completes a source ends the log with exactly one completed")
    func R3_deinitCompletes() {
        let recorder = EventRecorder<[Int], Never>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, Never>.pipe()
            let (b, bInput) = Signal<Int, Never>.pipe()
            let holder = Locked<CompletesOnDeinit?>(CompletesOnDeinit { aInput.sendCompleted() })
            let zipped = Signal.zip(a, b).map { [$0, $1] }
            zipped.observe(recorder.observer)
            zipped.observeValues { _ in holder.value = nil }
            aInput.send(value: 1)
            bInput.send(value: 2)
            bInput.send(value: 3)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), .completed])
    }

    @Test("R6: two threads sending into the two inputs give every pair once, in order")
    func R6_stress() {
        let perThread = 5_000
        let (a, aInput) = Signal<Int, Never>.pipe()
        let (b, bInput) = Signal<Int, Never>.pipe()
        nonisolated(unsafe) var pairs: [[Int]] = []
        Signal.zip(a, b).observeValues { pairs.append([$0, $1]) }
        raceFromBarrier(threads: 2) { thread in
            let input = thread == 0 ? aInput : bInput
            for value in 0..<perThread { input.send(value: value) }
        }
        #expect(pairs == (0..<perThread).map { [$0, $0] })
    }

    @Test("R8: zip frees its buffers and stops observing its inputs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.zip(with: b) } == .clean)
        #expect(leakReport(ending) { a, b, _ in Signal.zip([a, b]) } == .clean)
        #expect(producerLeakReport(ending) { a, b, _ in a.zip(with: b) } == .clean)
        #expect(
            producerLeakReport(ending) { a, b, _ in SignalProducer.zip(a, b, SignalProducer(values: [0, 1])) } == .clean
        )
    }
}
