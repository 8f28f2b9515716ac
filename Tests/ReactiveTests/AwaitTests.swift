import Dispatch
import Reactive
import TestSupport
import Testing

@Suite("Awaiting a producer's result")
struct AwaitTests {
    enum TestError: Error, Equatable { case boom }
    typealias Failure = AwaitError<TestError>

    static func sending(_ values: [Int], then end: Signal<Int, TestError>.Event?, runs: RunLog)
        -> SignalProducer<Int, TestError>
    {
        SignalProducer { observer, lifetime in
            runs.track(observer, lifetime)
            for value in values { observer.send(value: value) }
            if let end { observer.send(end) }
        }
    }

    @Test("first() returns the first value and disposes the run")
    func firstDisposes() async throws {
        let runs = RunLog()
        #expect(try await Self.sending([1, 2, 3], then: nil, runs: runs).first() == 1)
        #expect(runs.ended == 1)
    }

    @Test("first() of an endless synchronous producer returns, because the run stops at once")
    func firstOfEndless() async throws {
        let sent = Locked(0)
        let producer = SignalProducer<Int, Never>(values: 0...).map { value -> Int in
            sent.increment(by: 1)
            return value
        }
        #expect(try await producer.first() == 0)
        #expect(sent.value == 1)
    }

    @Test("R15: first() of an empty producer throws noValue")
    func R15_firstOfEmpty() async {
        await #expect(throws: Failure.noValue) { try await SignalProducer<Int, TestError>.empty.first() }
    }

    @Test("first() throws the run's error or its interruption, whichever ends it first")
    func firstFailures() async {
        let runs = RunLog()
        await #expect(throws: Failure.failed(.boom)) {
            try await SignalProducer<Int, TestError>(error: .boom).first()
        }
        await #expect(throws: Failure.interrupted) {
            try await Self.sending([], then: .interrupted, runs: runs).first()
        }
    }

    @Test("last() returns the last value after completion; noValue when there is none")
    func last() async throws {
        let runs = RunLog()
        #expect(try await Self.sending([1, 2, 3], then: .completed, runs: runs).last() == 3)
        await #expect(throws: Failure.noValue) { try await Self.sending([], then: .completed, runs: runs).last() }
        await #expect(throws: Failure.failed(.boom)) {
            try await Self.sending([1], then: .failed(.boom), runs: runs).last()
        }
        await #expect(throws: Failure.interrupted) {
            try await Self.sending([1], then: .interrupted, runs: runs).last()
        }
    }

    @Test("single() returns the only value; a second value throws multipleValues and disposes the run")
    func single() async throws {
        let runs = RunLog()
        #expect(try await Self.sending([5], then: .completed, runs: runs).single() == 5)
        await #expect(throws: Failure.multipleValues) {
            try await Self.sending([1, 2], then: nil, runs: runs).single()
        }
        #expect(runs.ended == 2)
        await #expect(throws: Failure.noValue) { try await Self.sending([], then: .completed, runs: runs).single() }
    }

    @Test("collect() returns every value in order, empty for an empty run")
    func collect() async throws {
        let runs = RunLog()
        #expect(try await Self.sending([1, 2, 3], then: .completed, runs: runs).collect() == [1, 2, 3])
        #expect(try await SignalProducer<Int, TestError>.empty.collect() == [])
        await #expect(throws: Failure.failed(.boom)) {
            try await Self.sending([1], then: .failed(.boom), runs: runs).collect()
        }
        let many = try await SignalProducer<Int, Never>(values: 0..<100_000).collect()
        let exact = many == Array(0..<100_000)
        #expect(exact, "\(many.count) values, not 0..<100,000 in order")
    }

    @Test("wait() returns on completion and throws the run's error")
    func wait() async throws {
        let runs = RunLog()
        try await Self.sending([1, 2], then: .completed, runs: runs).wait()
        await #expect(throws: Failure.failed(.boom)) {
            try await Self.sending([], then: .failed(.boom), runs: runs).wait()
        }
        #expect(runs.started == 2)
        #expect(runs.ended == 2)
    }

    @Test("a value sent later from another thread is awaited")
    func asynchronousValue() async throws {
        let producer = SignalProducer<Int, Never> { observer, _ in
            DispatchQueue.global().async {
                observer.send(value: 9)
                observer.sendCompleted()
            }
        }
        #expect(try await producer.first() == 9)
        #expect(try await producer.collect() == [9])
        #expect(try await SignalProducer { () async throws(TestError) in 4 }.first() == 4)
    }

    @Test("R15: cancelling the awaiting task disposes the run and throws cancelled", arguments: 0..<5)
    func R15_cancellation(method: Int) async {
        let runs = RunLog()
        let producer = Self.sending([], then: nil, runs: runs)
        let waiting = Task { () -> Failure? in
            do throws(Failure) {
                switch method {
                case 0: _ = try await producer.first()
                case 1: _ = try await producer.last()
                case 2: _ = try await producer.single()
                case 3: _ = try await producer.collect()
                default: try await producer.wait()
                }
                return nil
            } catch {
                return error
            }
        }
        #expect(await eventuallyPolling { runs.started == 1 })
        waiting.cancel()
        #expect(await value(of: waiting) == .cancelled)
        #expect(runs.ended == 1)
    }

    @Test("R15: a task cancelled before it awaits starts no run")
    func R15_cancelledBeforeAwait() async {
        let runs = RunLog()
        let producer = Self.sending([1], then: .completed, runs: runs)
        let waiting = Task { () -> Failure? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(Failure) {
                _ = try await producer.first()
                return nil
            } catch {
                return error
            }
        }
        #expect(await value(of: waiting) == .cancelled)
        #expect(runs.started == 0)
    }

    @Test("R8: the run is freed after the result, after an error, and after cancellation")
    func R8_freed() async {
        let runs = RunLog()
        _ = try? await Self.sending([1], then: nil, runs: runs).first()
        _ = try? await Self.sending([1], then: .completed, runs: runs).collect()
        _ = try? await Self.sending([], then: .failed(.boom), runs: runs).last()
        let waiting = Task { _ = try? await Self.sending([], then: nil, runs: runs).wait() }
        #expect(await eventuallyPolling { runs.started == 4 })
        waiting.cancel()
        #expect(await value(of: waiting) != nil)
        #expect(await eventuallyPolling { runs.alive == 0 })
        #expect(runs.ended == 4)
    }
}
