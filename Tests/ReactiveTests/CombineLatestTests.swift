import Dispatch
import Reactive
import TestSupport
import Testing

@Suite("combineLatest")
struct CombineLatestTests {
    @Test("combineLatest waits for every input, then sends each new combination")
    func values() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<String, ProbeError>.pipe()
        let recorder = a.combineLatest(with: b).map { "\($0)\($1)" }.record()
        aInput.send(value: 1)
        aInput.send(value: 2)
        #expect(recorder.events == [])
        bInput.send(value: "x")
        aInput.send(value: 3)
        bInput.send(value: "y")
        #expect(recorder.events == [.value("2x"), .value("3x"), .value("3y")])
    }

    @Test("combineLatest completes only when every input has completed")
    func completion() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int, ProbeError>.pipe()
        let recorder = Signal.combineLatest(a, b).map { [$0, $1] }.record()
        aInput.send(value: 1)
        aInput.sendCompleted()
        bInput.send(value: 2)
        bInput.send(value: 3)
        #expect(recorder.events == [.value([1, 2]), .value([1, 3])])
        bInput.sendCompleted()
        #expect(recorder.events == [.value([1, 2]), .value([1, 3]), .completed])
    }

    @Test(
        "combineLatest fails or is interrupted at the first input that does, and stops observing the others",
        arguments: [Terminal.failed, .interrupted])
    func earlyTerminal(terminal: Terminal) {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let bProbe: SignalProbe
        let recorder: EventRecorder<[Int], ProbeError>
        do {
            let (b, probe) = SignalProbe.make()
            bProbe = probe
            recorder = Signal.combineLatest(a, b).map { [$0, $1] }.record()
        }
        aInput.send(value: 1)
        bProbe.input.send(value: 2)
        terminal.send(to: aInput)
        bProbe.input.send(value: 3)
        #expect(recorder.events == [.value([1, 2]), terminal.event()])
        #expect(bProbe.hasEnded)
    }

    @Test("combineLatest of three inputs and of a collection, including optionals and an empty collection")
    func arities() {
        let (a, aInput) = Signal<Int, ProbeError>.pipe()
        let (b, bInput) = Signal<Int?, ProbeError>.pipe()
        let (c, cInput) = Signal<String, ProbeError>.pipe()
        let triples = Signal.combineLatest(a, b, c).map { "\($0) \(String(describing: $1)) \($2)" }.record()
        aInput.send(value: 1)
        bInput.send(value: nil)
        cInput.send(value: "c")
        bInput.send(value: 2)
        #expect(triples.values == ["1 nil c", "1 Optional(2) c"])

        let pipes = (0..<3).map { _ in Signal<Int, ProbeError>.pipe() }
        let arrays = Signal.combineLatest(pipes.map(\.output)).record()
        for (index, pipe) in pipes.enumerated() { pipe.input.send(value: index) }
        pipes[1].input.send(value: 10)
        for pipe in pipes { pipe.input.sendCompleted() }
        #expect(arrays.events == [.value([0, 1, 2]), .value([0, 10, 2]), .completed])

        #expect(Signal<Int, ProbeError>.combineLatest([]).record().events == [.completed])
        #expect(SignalProducer<Int, ProbeError>.combineLatest([]).record().0.events == [.completed])
    }

    @Test("the producer overload starts its inputs in order and interrupts them all on disposal")
    func producers() {
        let ab = SignalProducer.combineLatest(
            SignalProducer<Int, ProbeError>(values: [1, 2]),
            SignalProducer<Int, ProbeError>(values: [3, 4])
        )
        #expect(ab.map { [$0, $1] }.record().0.events == [.value([2, 3]), .value([2, 4]), .completed])
        let abc = SignalProducer.combineLatest(
            SignalProducer<Int, ProbeError>(value: 1),
            SignalProducer<Int, ProbeError>(value: 2),
            SignalProducer<Int, ProbeError>(values: [3, 4])
        )
        #expect(abc.map { [$0, $1, $2] }.record().0.events == [.value([1, 2, 3]), .value([1, 2, 4]), .completed])
        let collection = SignalProducer.combineLatest([
            SignalProducer<Int, ProbeError>(value: 1), SignalProducer(value: 2),
        ])
        #expect(collection.record().0.events == [.value([1, 2]), .completed])

        let first = ProducerProbe()
        let second = ProducerProbe()
        let (recorder, disposable) = first.producer.combineLatest(with: second.producer).map { [$0, $1] }.record()
        first.runs[0].observer.send(value: 1)
        second.runs[0].observer.send(value: 2)
        disposable.dispose()
        #expect(recorder.events == [.value([1, 2]), .interrupted])
        #expect(first.allRunsEnded && second.allRunsEnded)
    }

    @Test("a failure of one producer input interrupts the others; later inputs never start")
    func producerFailure() {
        let other = ProducerProbe()
        let (recorder, _) = SignalProducer.combineLatest(other.producer, SignalProducer<Int, ProbeError>(error: .boom))
            .map { [$0, $1] }
            .record()
        #expect(recorder.events == [.failed(.boom)])
        #expect(other.runs.count == 1 && other.allRunsEnded)
        let never = ProducerProbe()
        _ = SignalProducer.combineLatest(SignalProducer<Int, ProbeError>(error: .boom), never.producer).start()
        #expect(never.runs.isEmpty)
    }

    @Test("an observer sending into an input during delivery gets the new combination after the current one")
    func reentrantSend() {
        let (a, aInput) = Signal<Int, Never>.pipe()
        let (b, bInput) = Signal<Int, Never>.pipe()
        let log = Locked<[[Int]]>([])
        Signal.combineLatest(a, b).observeValues { pair in
            log.append([pair.0, pair.1])
            if pair.0 < 3 { aInput.send(value: pair.0 + 1) }
        }
        bInput.send(value: 0)
        aInput.send(value: 1)
        #expect(log.value == [[1, 0], [2, 0], [3, 0]])
    }

    // MARK: R3: recursive termination, ported from ReactiveSwift's AggregateBuilder tests

    @Test("R3: no deadlock upon disposal (take(first: 1) disposes the inputs while delivering)")
    func R3_disposal() {
        let recorder = EventRecorder<[Int], Never>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, Never>.pipe()
            let (b, bInput) = Signal<Int, Never>.pipe()
            Signal.combineLatest(a, b).take(first: 1).map { [$0, $1] }.observe(recorder.observer)
            aInput.send(value: 1)
            bInput.send(value: 2)
            bInput.send(value: 3)
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
            let combined = Signal.combineLatest(a, b).map { [$0, $1] }
            combined.observeValues { _ in
                aInput.sendCompleted()
                bInput.sendCompleted()
            }
            combined.observe(recorder.observer)
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
            let combined = Signal.combineLatest(a, b).map { [$0, $1] }
            combined.observeResult { _ in terminal.send(to: aInput) }
            combined.observe(recorder.observer)
            aInput.send(value: 1)
            bInput.send(value: 2)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), terminal.event()])
    }

    @Test("R3: a deinit run inside a callback that completes the sources ends the log with exactly one completed")
    func R3_deinitCompletes() {
        let recorder = EventRecorder<[Int], Never>()
        let finished = finishesWithin(seconds: 10) {
            let (a, aInput) = Signal<Int, Never>.pipe()
            let (b, bInput) = Signal<Int, Never>.pipe()
            let holder = Locked<CompletesOnDeinit?>(
                CompletesOnDeinit {
                    aInput.sendCompleted()
                    bInput.sendCompleted()
                })
            let combined = Signal.combineLatest(a, b).map { [$0, $1] }
            combined.observe(recorder.observer)
            combined.observeValues { _ in holder.value = nil }
            aInput.send(value: 1)
            bInput.send(value: 2)
            bInput.send(value: 3)
        }
        #expect(finished)
        #expect(recorder.events == [.value([1, 2]), .completed])
    }

    @Test("R3: a deinit run inside a callback that completes the signal being delivered gives one completed")
    func R3_deinitCompletesDeliveredSignal() {
        let recorder = EventRecorder<Int, Never>()
        let finished = finishesWithin(seconds: 10) {
            let (signal, input) = Signal<Int, Never>.pipe()
            let holder = Locked<CompletesOnDeinit?>(CompletesOnDeinit { input.sendCompleted() })
            signal.observeValues { _ in holder.value = nil }
            signal.observe(recorder.observer)
            input.send(value: 1)
            input.send(value: 2)
        }
        #expect(finished)
        #expect(recorder.events == [.value(1), .completed])
    }

    // MARK: Concurrency

    @Test("R6: concurrent senders into every input: no combination lost, duplicated, reordered or overlapping")
    func R6_stress() {
        let inputs = 3
        let perThread = 3_000
        let pipes = (0..<inputs).map { _ in Signal<Int, Never>.pipe() }
        let combined = Signal.combineLatest(pipes.map(\.output))
        nonisolated(unsafe) var previous: [Int]? = nil
        nonisolated(unsafe) var count = 0
        nonisolated(unsafe) var bad = 0
        let inFlight = Locked(0)
        let overlaps = Locked(0)
        combined.observeValues { values in
            if inFlight.withLock({ value -> Int in
                value += 1
                return value
            }) != 1 {
                overlaps.increment(by: 1)
            }
            if let last = previous {
                let changed = zip(last, values).filter { $0 != $1 }
                if changed.count != 1 || changed[0].1 != changed[0].0 + 1 { bad += 1 }
            }
            previous = values
            count += 1
            inFlight.withLock { $0 -= 1 }
        }
        for pipe in pipes { pipe.input.send(value: 0) }
        raceFromBarrier(threads: inputs) { thread in
            for value in 1...perThread { pipes[thread].input.send(value: value) }
        }
        #expect(overlaps.value == 0)
        #expect(bad == 0)
        #expect(count == 1 + inputs * perThread)
        #expect(previous == Array(repeating: perThread, count: inputs))
    }

    @Test("R8: combineLatest frees its state and stops observing its inputs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.combineLatest(with: b) } == .clean)
        #expect(leakReport(ending) { a, b, _ in Signal.combineLatest([a, b]) } == .clean)
        #expect(producerLeakReport(ending) { a, b, _ in a.combineLatest(with: b) } == .clean)
        #expect(
            producerLeakReport(ending) { a, b, _ in SignalProducer.combineLatest(a, b, SignalProducer(value: 0)) }
                == .clean)
    }
}

/// Runs `action` when it is freed.
final class CompletesOnDeinit: Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    deinit { action() }
}
