import Reactive
import TestSupport
import Testing

@Suite("SignalProducer from async work")
struct AsyncProducerTests {
    enum TestError: Error, Equatable { case boom, cancelled }

    @Test("each run performs the operation, sends its value, then completes")
    func sendsValueThenCompletes() async {
        let calls = Locked(0)
        let producer = SignalProducer { () async throws(TestError) -> Int in
            calls.increment(by: 1)
            return 42
        }
        let (first, _) = producer.record()
        let (second, _) = producer.record()
        #expect(await eventuallyPolling { first.isTerminated && second.isTerminated })
        #expect(first.events == [.value(42), .completed])
        #expect(second.events == [.value(42), .completed])
        #expect(calls.value == 2)
    }

    @Test("a run fails with the operation's typed error")
    func failsWithTypedError() async {
        let producer = SignalProducer { () async throws(TestError) -> Int in throw .boom }
        let (recorder, _) = producer.record()
        #expect(await eventuallyPolling { recorder.isTerminated })
        #expect(recorder.events == [.failed(.boom)])
    }

    @Test("a non-throwing operation makes a Never-failing producer without annotations")
    func nonThrowingInfersNever() async throws {
        let producer = SignalProducer { () async in 7 }
        let typed: SignalProducer<Int, Never> = producer
        #expect(try await typed.first() == 7)
    }

    @Test("R15: disposing the run cancels its task, and nothing is sent after the interruption")
    func R15_disposeCancelsTask() async {
        let cancelled = Locked(false)
        let entered = Locked(false)
        let tracker = LifetimeTracker()
        let recorder: EventRecorder<Int, TestError>
        do {
            let token = tracker.instance()
            let gate = AsyncGate()
            let producer = SignalProducer { () async throws(TestError) -> Int in
                _ = token
                entered.value = true
                await withTaskCancellationHandler {
                    await gate.wait()
                } onCancel: {
                    cancelled.value = true
                    gate.open()
                }
                // Ends by cancellation: both a value and an error here must be dropped.
                if Task.isCancelled { throw .cancelled }
                return 1
            }
            let disposable: any Disposable
            (recorder, disposable) = producer.record()
            #expect(await eventuallyPolling { entered.value })
            disposable.dispose()
            #expect(await eventuallyPolling { cancelled.value })
        }
        // The task has finished once it released the operation (and the token it captured).
        #expect(await eventuallyPolling { tracker.live == 0 })
        #expect(recorder.events == [.interrupted])
    }

    @Test("a run disposed at once never delivers the operation's value")
    func disposedAtOnce() async {
        let tracker = LifetimeTracker()
        let recorder: EventRecorder<Int, Never>
        do {
            let token = tracker.instance()
            let producer = SignalProducer { () async -> Int in
                _ = token
                return 1
            }
            let disposable: any Disposable
            (recorder, disposable) = producer.record()
            disposable.dispose()
        }
        // The task has finished (and sent whatever it sends) once it released the operation.
        #expect(await eventuallyPolling { tracker.live == 0 })
        #expect(recorder.events == [.interrupted])
    }

    @Test("R8: a run frees its task, observer and lifetime after it completes")
    func R8_freedAfterCompletion() async throws {
        let runs = RunLog()
        let tracker = LifetimeTracker()
        do {
            let token = tracker.instance()
            let producer = SignalProducer { () async -> Int in
                _ = token
                return 1
            }
            let tracked = SignalProducer<Int, Never> { observer, lifetime in
                runs.track(observer, lifetime)
                lifetime += producer.start(observer)
            }
            #expect(try await tracked.collect() == [1])
        }
        #expect(await eventuallyPolling { tracker.live == 0 && runs.alive == 0 })
        #expect(runs.started == 1)
        #expect(runs.ended == 1)
    }
}

@Suite("SignalProducer from an AsyncSequence")
struct AsyncSequenceProducerTests {
    enum TestError: Error, Equatable { case boom }

    /// Counts from 0 to `count - 1`, then fails if `failing`, else ends; counts its iterators.
    struct Numbers: AsyncSequence, Sendable {
        typealias Element = Int
        typealias Failure = TestError
        let count: Int
        var failing = false
        let iterators: Locked<Int>

        struct Iterator: AsyncIteratorProtocol {
            let sequence: Numbers
            var next = 0

            mutating func next() async throws(TestError) -> Int? {
                guard next < sequence.count else {
                    if sequence.failing { throw .boom }
                    return nil
                }
                defer { next += 1 }
                return next
            }
        }

        func makeAsyncIterator() -> Iterator {
            iterators.increment(by: 1)
            return Iterator(sequence: self)
        }
    }

    @Test("each run iterates the sequence anew, sends every element, then completes")
    func sendsEveryElement() async throws {
        let iterators = Locked(0)
        let producer = SignalProducer(Numbers(count: 3, iterators: iterators))
        #expect(try await producer.collect() == [0, 1, 2])
        #expect(try await producer.collect() == [0, 1, 2])
        #expect(iterators.value == 2)
    }

    @Test("a run fails with the sequence's typed error after the elements before it")
    func failsWithTypedError() async {
        let producer = SignalProducer(Numbers(count: 2, failing: true, iterators: Locked(0)))
        let (recorder, _) = producer.record()
        #expect(await eventuallyPolling { recorder.isTerminated })
        #expect(recorder.events == [.value(0), .value(1), .failed(.boom)])
    }

    @Test("R15: disposing the run cancels the task that iterates the sequence")
    func R15_disposeCancelsIteration() async {
        let terminated = Locked(false)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { _ in terminated.value = true }
        let (recorder, disposable) = SignalProducer(stream).record()
        continuation.yield(1)
        #expect(await eventuallyPolling { recorder.values == [1] })
        disposable.dispose()
        #expect(await eventuallyPolling { terminated.value })
        continuation.yield(2)
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test("R8: a run over a sequence frees its task, observer and lifetime after completion and disposal")
    func R8_freed() async throws {
        let runs = RunLog()
        do {
            let source = SignalProducer(Numbers(count: 3, iterators: Locked(0)))
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let endless = SignalProducer(stream)
            let tracked = { (inner: SignalProducer<Int, Never>) in
                SignalProducer<Int, Never> { observer, lifetime in
                    runs.track(observer, lifetime)
                    lifetime += inner.start(observer)
                }
            }
            let completed = SignalProducer<Int, TestError> { observer, lifetime in
                runs.track(observer, lifetime)
                lifetime += source.start(observer)
            }
            #expect(try await completed.collect() == [0, 1, 2])
            let (recorder, disposable) = tracked(endless).record()
            continuation.yield(1)
            #expect(await eventuallyPolling { recorder.values == [1] })
            disposable.dispose()
        }
        #expect(await eventuallyPolling { runs.alive == 0 })
        #expect(runs.started == 2)
        #expect(runs.ended == 2)
    }
}
