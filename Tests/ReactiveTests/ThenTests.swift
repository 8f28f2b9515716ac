import Reactive
import TestSupport
import Testing

@Suite("then, concat, prefix(value:)")
struct ThenTests {
    @Test("then drops this signal's values and forwards the replacement's events after completion")
    func thenAfterCompletion() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let replacement = ProducerProbe()
        let recorder = signal.then(replacement.producer).record()
        input.send(value: 1)
        #expect(replacement.runs.isEmpty)
        input.sendCompleted()
        #expect(replacement.runs.count == 1)
        replacement.runs[0].observer.send(value: 10)
        replacement.runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(10), .completed])
    }

    @Test(
        "then passes a failure or interruption at once and never starts the replacement",
        arguments: [Terminal.failed, .interrupted])
    func thenEarlyTerminal(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let replacement = ProducerProbe()
        let recorder = signal.then(replacement.producer).record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [terminal.event()])
        #expect(replacement.runs.isEmpty)
    }

    @Test("then on producers runs the replacement once per run; disposal interrupts whichever runs")
    func thenProducer() {
        let producer = SignalProducer<Int, ProbeError>(values: [1, 2]).then(
            SignalProducer<String, ProbeError>(value: "done"))
        #expect(producer.record().0.events == [.value("done"), .completed])
        let replacement = ProducerProbe()
        let (recorder, disposable) = SignalProducer<Int, ProbeError>.empty.then(replacement.producer).record()
        replacement.runs[0].observer.send(value: 3)
        disposable.dispose()
        #expect(recorder.events == [.value(3), .interrupted])
        #expect(replacement.allRunsEnded)
    }

    @Test("concat forwards this producer's events, then the next one's")
    func concat() {
        let first = ProducerProbe()
        let second = ProducerProbe()
        let (recorder, _) = first.producer.concat(second.producer).record()
        first.runs[0].observer.send(value: 1)
        #expect(second.runs.isEmpty)
        first.runs[0].observer.sendCompleted()
        second.runs[0].observer.send(value: 2)
        second.runs[0].observer.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
        let synchronous = SignalProducer<Int, ProbeError>(values: [1, 2]).concat(SignalProducer(values: [3]))
        #expect(synchronous.record().0.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test(
        "concat ends at a failure or interruption of the first producer without starting the next",
        arguments: [Terminal.failed, .interrupted])
    func concatEarlyTerminal(terminal: Terminal) {
        let first = ProducerProbe()
        let second = ProducerProbe()
        let (recorder, _) = first.producer.concat(second.producer).record()
        first.runs[0].observer.send(value: 1)
        terminal.send(to: first.runs[0].observer)
        #expect(recorder.events == [.value(1), terminal.event()])
        #expect(second.runs.isEmpty)
    }

    @Test("disposing a concatenated run interrupts whichever producer is running")
    func concatDisposal() {
        let first = ProducerProbe()
        let second = ProducerProbe()
        let (early, earlyDisposable) = first.producer.concat(second.producer).record()
        earlyDisposable.dispose()
        #expect(early.events == [.interrupted])
        #expect(first.allRunsEnded && second.runs.isEmpty)
        let (late, lateDisposable) = SignalProducer<Int, ProbeError>.empty.concat(second.producer).record()
        lateDisposable.dispose()
        #expect(late.events == [.interrupted])
        #expect(second.runs.count == 1 && second.allRunsEnded)
    }

    @Test("prefix(value:) sends the value before every run's events")
    func prefix() {
        let producer = SignalProducer<Int, ProbeError>(values: [2, 3]).prefix(value: 1)
        #expect(producer.record().0.events == [.value(1), .value(2), .value(3), .completed])
        #expect(producer.record().0.events == [.value(1), .value(2), .value(3), .completed])
        #expect(
            SignalProducer<Int, ProbeError>(error: .boom).prefix(value: 0).record().0.events == [
                .value(0), .failed(.boom),
            ])
    }

    @Test("R8: then, concat and prefix free their runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { s, _, _ in s.then(SignalProducer<Int, ProbeError>(value: 0)) } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.then(SignalProducer<Int, ProbeError>(value: 0)) } == .clean)
        #expect(producerLeakReport(ending) { p, next, _ in p.concat(next) } == .clean)
        #expect(producerLeakReport(ending) { p, _, _ in p.prefix(value: 0) } == .clean)
    }
}

@Suite("retry(upTo:)")
struct RetryTests {
    /// A producer that fails its first `failures` runs after sending the run number, then succeeds.
    private func flaky(failures: Int, starts: Locked<Int>) -> SignalProducer<Int, ProbeError> {
        SignalProducer { observer, _ in
            let attempt = starts.withLock { count -> Int in
                count += 1
                return count
            }
            observer.send(value: attempt)
            if attempt <= failures {
                observer.send(error: .boom)
            } else {
                observer.sendCompleted()
            }
        }
    }

    @Test("retry restarts a failed run and succeeds on the kth try, forwarding every attempt's values")
    func succeedsOnKthTry() {
        let starts = Locked(0)
        let (recorder, _) = flaky(failures: 2, starts: starts).retry(upTo: 3).record()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
        #expect(starts.value == 3)
    }

    @Test("retry fails with the last error after n retries, having started n + 1 runs")
    func failsAfterRetries() {
        let starts = Locked(0)
        let (recorder, _) = flaky(failures: 10, starts: starts).retry(upTo: 2).record()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .failed(.boom)])
        #expect(starts.value == 3)
        starts.value = 0
        let (noRetry, _) = flaky(failures: 10, starts: starts).retry(upTo: 0).record()
        #expect(noRetry.events == [.value(1), .failed(.boom)])
        #expect(starts.value == 1)
    }

    @Test("every run of a retrying producer has its own retry budget")
    func budgetPerRun() {
        let probe = ProducerProbe()
        let retrying = probe.producer.retry(upTo: 1)
        let (first, _) = retrying.record()
        probe.runs[0].observer.send(error: .boom)
        probe.runs[1].observer.send(error: .other)
        let (second, _) = retrying.record()
        probe.runs[2].observer.send(error: .boom)
        #expect(first.events == [.failed(.other)])
        #expect(second.events == [])
        #expect(probe.runs.count == 4)
    }

    @Test(
        "completion and interruption of an attempt end the run without a retry",
        arguments: [Terminal.completed, .interrupted])
    func otherTerminals(terminal: Terminal) {
        let probe = ProducerProbe()
        let (recorder, _) = probe.producer.retry(upTo: 5).record()
        probe.runs[0].observer.send(value: 1)
        terminal.send(to: probe.runs[0].observer)
        #expect(recorder.events == [.value(1), terminal.event()])
        #expect(probe.runs.count == 1)
    }

    @Test("disposing a retrying run interrupts the current attempt and starts no other")
    func disposal() {
        let probe = ProducerProbe()
        let (recorder, disposable) = probe.producer.retry(upTo: 5).record()
        probe.runs[0].observer.send(error: .boom)
        disposable.dispose()
        probe.runs[1].observer.send(error: .boom)
        #expect(recorder.events == [.interrupted])
        #expect(probe.runs.count == 2 && probe.allRunsEnded)
    }

    @Test("R1: thousands of synchronous failures are retried in a loop on a 256 KiB stack")
    func R1_iterative() {
        let starts = Locked(0)
        let recorder = EventRecorder<Int, ProbeError>()
        let finished = finishesWithin(seconds: 60, stackSize: 256 * 1024) {
            SignalProducer<Int, ProbeError> { observer, _ in
                starts.increment(by: 1)
                observer.send(error: .boom)
            }
            .retry(upTo: 10_000)
            .start(recorder.observer)
        }
        #expect(finished)
        #expect(starts.value == 10_001)
        #expect(recorder.events == [.failed(.boom)])
    }

    @Test("R8: retry frees its attempts and state", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(producerLeakReport(ending) { p, _, _ in p.retry(upTo: 0) } == .clean)
        if ending != .failed {
            #expect(
                producerLeakReport(ending) { p, _, token in p.on(value: { _ in _ = token }).retry(upTo: 1) } == .clean)
        }
    }

    @Test("R8: a retried run frees every attempt once the last one ends or the run is disposed")
    func R8_retriedRunFreed() {
        for disposes in [false, true] {
            let tracker = LifetimeTracker()
            let probe = ProducerProbe()
            do {
                let token = tracker.instance()
                let disposable = probe.producer.on(value: { _ in _ = token }).retry(upTo: 2).start()
                probe.runs[0].observer.send(error: .boom)
                probe.runs[1].observer.send(value: 1)
                if disposes {
                    disposable.dispose()
                } else {
                    probe.runs[1].observer.sendCompleted()
                }
            }
            #expect(probe.runs.count == 2)
            #expect(probe.allRunsEnded)
            #expect(tracker.live == 0)
        }
    }

    @Test("retry(upTo:) traps on a negative count, naming it")
    func negativeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.retry(upTo: -1)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("retry(upTo:)"))
    }
}
