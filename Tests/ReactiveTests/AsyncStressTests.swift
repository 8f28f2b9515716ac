import Dispatch
import Reactive
import TestSupport
import Testing

@Suite("Async bridges under concurrency")
struct AsyncStressTests {
    /// A producer whose runs send 0, 1, 2, ... from a thread of the global queue until disposed or
    /// `limit` values are sent, then complete.
    static func counting(limit: Int, runs: RunLog) -> SignalProducer<Int, Never> {
        SignalProducer { observer, lifetime in
            runs.track(observer, lifetime)
            DispatchQueue.global().async {
                for value in 0..<limit {
                    guard !lifetime.hasEnded else { return }
                    observer.send(value: value)
                }
                observer.sendCompleted()
            }
        }
    }

    enum Stop: CaseIterable { case breakLoop, cancelSelf, cancelFromOutside, runToEnd }

    @Test(
        "R15: 100 tasks iterate and stop at random points: every run is disposed, nothing leaks", arguments: [1, 2, 3])
    func R15_concurrentIterationAndCancellation(seed: UInt64) async {
        var random = SplitMix(seed: seed)
        let runs = RunLog()
        let limit = 400
        let producer = Self.counting(limit: limit, runs: runs)
        var consumers: [(task: Task<[Int], Never>, stop: Stop, after: Int)] = []
        for _ in 0..<100 {
            let stop = Stop.allCases.randomElement(using: &random)!
            let after = Int.random(in: 0..<200, using: &random)
            let task = Task {
                var received: [Int] = []
                for await value in producer.values {
                    received.append(value)
                    guard received.count > after else { continue }
                    if stop == .breakLoop { break }
                    if stop == .cancelSelf { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return received
            }
            consumers.append((task, stop, after))
        }
        for consumer in consumers where consumer.stop == .cancelFromOutside {
            for _ in 0..<Int.random(in: 0..<20, using: &random) { await Task.yield() }
            consumer.task.cancel()
        }
        for consumer in consumers {
            let received = await value(of: consumer.task) ?? [-1]
            // Whatever the stop, a consumer sees a gap-free prefix of its run's values.
            let gapFree = received == Array(0..<received.count)
            #expect(gapFree, "seed \(seed): \(received.count) values, not 0, 1, 2, ...")
            switch consumer.stop {
            case .runToEnd: #expect(received.count == limit)
            case .breakLoop: #expect(received.count == min(consumer.after + 1, limit))
            case .cancelSelf, .cancelFromOutside: #expect(received.count <= limit)
            }
        }
        #expect(runs.started == 100)
        #expect(await eventuallyPolling { runs.ended == 100 && runs.alive == 0 }, "seed \(seed)")
    }

    @Test("R15: 100 tasks await first() and collect() while being cancelled at random: each run ends once")
    func R15_concurrentAwaitAndCancellation() async {
        var random = SplitMix(seed: 42)
        let runs = RunLog()
        let producer = Self.counting(limit: 500, runs: runs)
        var waiting: [Task<Result<Int, AwaitError<Never>>, Never>] = []
        for index in 0..<100 {
            let task = Task { () -> Result<Int, AwaitError<Never>> in
                do throws(AwaitError<Never>) {
                    return .success(
                        index.isMultiple(of: 2) ? try await producer.first() : try await producer.collect().count)
                } catch {
                    return .failure(error)
                }
            }
            waiting.append(task)
            if Bool.random(using: &random) { task.cancel() }
        }
        for (index, task) in waiting.enumerated() {
            switch await value(of: task) {
            case .success(let value): #expect(value == (index.isMultiple(of: 2) ? 0 : 500))
            case .failure(let error): #expect(error == .cancelled)
            case nil: Issue.record("task \(index) did not finish")
            }
        }
        #expect(await eventuallyPolling { runs.ended == runs.started && runs.alive == 0 })
        #expect(runs.started <= 100)
    }

    @Test("R15: 100 runs of async work disposed in random order each cancel their task and send nothing more")
    func R15_concurrentAsyncWorkDisposal() async {
        var random = SplitMix(seed: 7)
        let cancelled = Locked(0)
        let finished = Locked(0)
        let producer = SignalProducer { () async -> Int in
            let gate = AsyncGate()
            await withTaskCancellationHandler {
                await gate.wait()
            } onCancel: {
                cancelled.increment(by: 1)
                gate.open()
            }
            finished.increment(by: 1)
            return 1
        }
        var recorders: [EventRecorder<Int, Never>] = []
        var disposables: [any Disposable] = []
        for _ in 0..<100 {
            let (recorder, disposable) = producer.record()
            recorders.append(recorder)
            disposables.append(disposable)
        }
        for disposable in disposables.shuffled(using: &random) {
            for _ in 0..<Int.random(in: 0..<3, using: &random) { await Task.yield() }
            disposable.dispose()
        }
        #expect(await eventuallyPolling { finished.value == 100 })
        #expect(cancelled.value == 100)
        #expect(recorders.allSatisfy { $0.events == [.interrupted] })
    }
}
