import Reactive
import TestSupport
import Testing

@Suite("flatten and flatMap")
struct FlattenTests {
    /// Hand-driven inner producers, one probe per index.
    private let inners = (0..<4).map { _ in ProducerProbe() }

    private func inner(_ index: Int) -> SignalProducer<Int, ProbeError> {
        inners[index].producer
    }

    @Test("merge starts every inner at once, interleaves values, and completes after the outer and every inner")
    func merge() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let recorder = outer.flatMap(.merge) { inner($0) }.record()
        input.send(value: 0)
        input.send(value: 1)
        #expect(inners[0].runs.count == 1 && inners[1].runs.count == 1)
        inners[0].runs[0].observer.send(value: 10)
        inners[1].runs[0].observer.send(value: 20)
        inners[0].runs[0].observer.send(value: 11)
        inners[0].runs[0].observer.sendCompleted()
        input.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .value(11)])
        inners[1].runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .value(11), .completed])
    }

    @Test("merge completes when the outer completes after every inner has")
    func mergeOuterLast() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let recorder = outer.flatMap(.merge) { SignalProducer(value: $0 * 2) }.record()
        input.send(value: 1)
        input.send(value: 2)
        #expect(recorder.events == [.value(2), .value(4)])
        input.sendCompleted()
        #expect(recorder.events == [.value(2), .value(4), .completed])
    }

    @Test("concat runs the inners one after another, in arrival order")
    func concat() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let recorder = outer.flatMap(.concat) { inner($0) }.record()
        input.send(value: 0)
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(inners.map(\.runs.count) == [1, 0, 0, 0])
        inners[0].runs[0].observer.send(value: 10)
        inners[0].runs[0].observer.sendCompleted()
        #expect(inners.map(\.runs.count) == [1, 1, 0, 0])
        inners[1].runs[0].observer.send(value: 20)
        inners[1].runs[0].observer.sendCompleted()
        inners[2].runs[0].observer.send(value: 30)
        #expect(recorder.events == [.value(10), .value(20), .value(30)])
        inners[2].runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .value(30), .completed])
    }

    @Test("concurrent(limit:) runs at most limit inners and starts a waiting one when one completes")
    func concurrentLimit() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let recorder = outer.flatMap(.concurrent(limit: 2)) { inner($0) }.record()
        for index in 0..<3 { input.send(value: index) }
        #expect(inners.map(\.runs.count) == [1, 1, 0, 0])
        inners[1].runs[0].observer.sendCompleted()
        #expect(inners.map(\.runs.count) == [1, 1, 1, 0])
        inners[2].runs[0].observer.send(value: 3)
        input.sendCompleted()
        inners[0].runs[0].observer.sendCompleted()
        inners[2].runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(3), .completed])
    }

    @Test("latest disposes the previous inner run before starting the next; its late values never appear")
    func latest() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let previousEndedAtStart = Locked<[Bool]>([])
        let recorder = outer.flatMap(.latest) { index -> SignalProducer<Int, ProbeError> in
            let previous = index > 0 ? inners[index - 1].runs.first : nil
            return SignalProducer.deferred {
                previousEndedAtStart.append(previous?.hasEnded ?? true)
                return inner(index)
            }
        }.record()
        input.send(value: 0)
        inners[0].runs[0].observer.send(value: 10)
        input.send(value: 1)
        #expect(inners[0].runs[0].hasEnded)
        inners[0].runs[0].observer.send(value: 11)
        inners[0].runs[0].observer.sendCompleted()
        inners[1].runs[0].observer.send(value: 20)
        input.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20)])
        inners[1].runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(10), .value(20), .completed])
        #expect(previousEndedAtStart.value == [true, true])
    }

    @Test("latest: an inner interrupted because it was superseded does not interrupt the result")
    func latestSupersededInterruption() {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let recorder = outer.flatMap(.latest) { inner($0) }.record()
        input.send(value: 0)
        input.send(value: 1)
        input.send(value: 2)
        inners[2].runs[0].observer.send(value: 7)
        #expect(recorder.events == [.value(7)])
        #expect(inners[0].runs[0].hasEnded && inners[1].runs[0].hasEnded && !inners[2].runs[0].hasEnded)
    }

    @Test(
        "a failing inner fails the result and disposes the other inners and the outer",
        arguments: [FlattenStrategy.merge, .concat, .latest])
    func innerFailure(strategy: FlattenStrategy) {
        let outerProbe = ProducerProbe()
        let (recorder, _) = outerProbe.producer.flatMap(strategy) { inner($0) }.record()
        outerProbe.runs[0].observer.send(value: 0)
        outerProbe.runs[0].observer.send(value: 1)
        let running = inners.flatMap(\.runs).filter { !$0.hasEnded }
        running.last!.observer.send(error: .boom)
        let innersEnded = inners.allSatisfy { $0.allRunsEnded }
        #expect(recorder.events == [.failed(.boom)])
        #expect(innersEnded)
        #expect(outerProbe.allRunsEnded)
    }

    @Test(
        "an interrupted inner interrupts the result; an outer failure fails it",
        arguments: [FlattenStrategy.merge, .concat, .latest])
    func otherTerminals(strategy: FlattenStrategy) {
        let (outer, input) = Signal<Int, ProbeError>.pipe()
        let interrupted = outer.flatMap(strategy) { inner($0) }.record()
        input.send(value: 0)
        inners[0].runs[0].observer.sendInterrupted()
        #expect(interrupted.events == [.interrupted])

        let (outer2, input2) = Signal<Int, ProbeError>.pipe()
        let failed = outer2.flatMap(strategy) { inner($0 + 1) }.record()
        input2.send(value: 0)
        input2.send(error: .other)
        #expect(failed.events == [.failed(.other)])
        #expect(inners[1].allRunsEnded)
    }

    @Test(
        "disposing a flattened producer run disposes the outer run and every inner run",
        arguments: [FlattenStrategy.merge, .concat, .latest, .concurrent(limit: 2)])
    func disposal(strategy: FlattenStrategy) {
        let outerProbe = ProducerProbe()
        let (recorder, disposable) = outerProbe.producer.flatMap(strategy) { inner($0) }.record()
        for index in 0..<3 { outerProbe.runs[0].observer.send(value: index) }
        inners.flatMap(\.runs).last!.observer.send(value: 5)
        disposable.dispose()
        #expect(recorder.events == [.value(5), .interrupted])
        let innersEnded = inners.allSatisfy { $0.allRunsEnded }
        #expect(outerProbe.allRunsEnded)
        #expect(innersEnded)
    }

    @Test("flatten runs a signal or producer of producers")
    func flatten() {
        let (outer, input) = Signal<SignalProducer<Int, ProbeError>, ProbeError>.pipe()
        let recorder = outer.flatten(.concat).record()
        input.send(value: SignalProducer(values: [1, 2]))
        input.send(value: SignalProducer(value: 3))
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        let producers = SignalProducer<SignalProducer<Int, ProbeError>, ProbeError>(
            values: [SignalProducer(value: 1), SignalProducer(value: 2)]
        )
        #expect(producers.flatten(.merge).record().0.events == [.value(1), .value(2), .completed])
        #expect(producers.flatten(.latest).record().0.events == [.value(1), .value(2), .completed])
    }

    @Test("an outer stream that cannot fail flattens failing inners")
    func neverOuter() {
        let (outer, input) = Signal<Int, Never>.pipe()
        let recorder = outer.flatMap(.latest) { value -> SignalProducer<Int, ProbeError> in
            value > 1 ? SignalProducer(error: .boom) : SignalProducer(value: value)
        }.record()
        input.send(value: 1)
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .failed(.boom)])
        let producers = SignalProducer<SignalProducer<Int, ProbeError>, Never>(value: SignalProducer(error: .other))
        #expect(producers.flatten(.merge).record().0.events == [.failed(.other)])
        let mapped = SignalProducer<Int, Never>(value: 1).flatMap(.concat) { _ in
            SignalProducer<Int, ProbeError>(value: 9)
        }
        #expect(mapped.record().0.events == [.value(9), .completed])
    }

    @Test("flatten and flatMap resolve when neither the outer nor the inner can fail")
    func neverNever() {
        let (outer, input) = Signal<Int, Never>.pipe()
        let mapped = outer.flatMap(.merge) { SignalProducer<Int, Never>(value: $0 + 1) }.record()
        let (producers, producerInput) = Signal<SignalProducer<Int, Never>, Never>.pipe()
        let flattened = producers.flatten(.latest).record()
        input.send(value: 1)
        producerInput.send(value: SignalProducer(value: 5))
        #expect(mapped.events == [.value(2)])
        #expect(flattened.events == [.value(5)])
        let producer = SignalProducer<Int, Never>(value: 1).flatMap(.latest) {
            SignalProducer<Int, Never>(value: $0 * 3)
        }
        #expect(producer.record().0.events == [.value(3), .completed])
        let nested = SignalProducer<SignalProducer<Int, Never>, Never>(value: SignalProducer(value: 4))
        #expect(nested.flatten(.concat).record().0.events == [.value(4), .completed])
    }

    @Test("R1: concat drains thousands of synchronous inners queued behind a slow one iteratively on a 256 KiB stack")
    func R1_concatIsIterative() {
        let count = 10_000
        let values = Locked<[Int]>([])
        let slow = ProducerProbe()
        let finished = finishesWithin(seconds: 60, stackSize: 256 * 1024) {
            let (outer, input) = Signal<SignalProducer<Int, ProbeError>, ProbeError>.pipe()
            outer.flatten(.concat).observeValues { values.append($0) }
            input.send(value: slow.producer)
            for value in 0..<count { input.send(value: SignalProducer(value: value)) }
            slow.runs[0].observer.sendCompleted()
        }
        #expect(finished)
        #expect(values.value == Array(0..<count))
    }

    @Test("R3: an observer of flatMap(.latest) that sends a new outer value during delivery switches without deadlock")
    func R3_reentrantSwitch() {
        let recorder = EventRecorder<Int, ProbeError>()
        let finished = finishesWithin(seconds: 10) {
            let (outer, input) = Signal<Int, ProbeError>.pipe()
            let flattened = outer.flatMap(.latest) { inner($0) }
            flattened.observeValues { value in
                if value == 10 { input.send(value: 1) }
            }
            flattened.observe(recorder.observer)
            input.send(value: 0)
            inners[0].runs[0].observer.send(value: 10)
            inners[0].runs[0].observer.send(value: 11)
            inners[1].runs[0].observer.send(value: 20)
        }
        #expect(finished)
        #expect(recorder.events == [.value(10), .value(20)])
        #expect(inners[0].allRunsEnded)
    }

    @Test("R6: merge of inners fed from several threads delivers every value once, never overlapping")
    func R6_mergeStress() {
        let threads = 4
        let perThread = 3_000
        let pipes = (0..<threads).map { _ in Signal<Int, ProbeError>.pipe() }
        let (outer, input) = Signal<SignalProducer<Int, ProbeError>, ProbeError>.pipe()
        nonisolated(unsafe) var received: [Int] = []
        let inFlight = Locked(0)
        let overlaps = Locked(0)
        let recorder = outer.flatten(.merge).on(value: { value in
            if inFlight.withLock({ count -> Int in
                count += 1
                return count
            }) != 1 {
                overlaps.increment(by: 1)
            }
            received.append(value)
            inFlight.withLock { $0 -= 1 }
        }).record()
        for pipe in pipes {
            input.send(value: SignalProducer { observer, lifetime in lifetime += pipe.output.observe(observer) })
        }
        input.sendCompleted()
        raceFromBarrier(threads: threads) { thread in
            for value in 0..<perThread { pipes[thread].input.send(value: thread * perThread + value) }
            pipes[thread].input.sendCompleted()
        }
        #expect(overlaps.value == 0)
        #expect(received.sorted() == Array(0..<(threads * perThread)))
        #expect(recorder.events.last == .completed)
    }

    @Test(
        "R8: every strategy frees the outer observation, inner runs and closures",
        arguments: [FlattenStrategy.merge, .concat, .latest])
    func R8_leaks(strategy: FlattenStrategy) {
        for ending in Ending.allCases {
            #expect(
                leakReport(ending) { s, _, token in
                    s.flatMap(strategy) { value -> SignalProducer<Int, ProbeError> in
                        _ = token
                        return SignalProducer(value: value)
                    }
                } == .clean,
                "\(ending)"
            )
            #expect(
                producerLeakReport(ending) { p, inner, token in
                    p.flatMap(strategy) { _ -> SignalProducer<Int, ProbeError> in
                        _ = token
                        return inner
                    }
                } == .clean,
                "\(ending)"
            )
        }
    }

    @Test("concurrent(limit:) traps on a limit below 1, naming it")
    func limitTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<SignalProducer<Int, Never>, Never>.pipe().output.flatten(.concurrent(limit: 0))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("limit"))
    }
}
