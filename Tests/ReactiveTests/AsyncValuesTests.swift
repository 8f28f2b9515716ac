import Dispatch
import Reactive
import TestSupport
import Testing

@Suite("AsyncValues of signals and producers")
struct AsyncValuesTests {
    enum TestError: Error, Equatable { case boom }

    /// A producer that never terminates by itself and logs its runs.
    static func endless(_ runs: RunLog, sending values: [Int] = []) -> SignalProducer<Int, Never> {
        SignalProducer { observer, lifetime in
            runs.track(observer, lifetime)
            for value in values { observer.send(value: value) }
        }
    }

    @Test("a Never-failing producer iterates with a plain for await, one run per loop")
    func plainForAwait() async {
        let starts = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            starts.increment(by: 1)
            for value in 1...3 { observer.send(value: value) }
            observer.sendCompleted()
        }
        var received: [Int] = []
        for await value in producer.values { received.append(value) }
        for await value in producer.values { received.append(value) }
        #expect(received == [1, 2, 3, 1, 2, 3])
        #expect(starts.value == 2)
    }

    @Test("a failing producer throws its typed error after the values sent before it")
    func typedFailure() async {
        let producer = SignalProducer<Int, TestError> { observer, _ in
            observer.send(value: 1)
            observer.send(value: 2)
            observer.send(error: .boom)
        }
        var received: [Int] = []
        var caught: TestError?
        do throws(TestError) {
            for try await value in producer.values { received.append(value) }
        } catch {
            caught = error
        }
        #expect(received == [1, 2])
        #expect(caught == .boom)
    }

    @Test("after its error the iterator ends")
    func endsAfterError() async throws {
        var iterator = SignalProducer<Int, TestError>(error: .boom).values.makeAsyncIterator()
        await #expect(throws: TestError.boom) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test("a signal's iterator reads the values sent after it was made, then ends on completion")
    func signalValues() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.send(value: 0)
        var iterator = signal.values.makeAsyncIterator()
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        var received: [Int?] = []
        for _ in 0..<4 { received.append(await iterator.next()) }
        #expect(received == [1, 2, nil, nil])
    }

    @Test("an interrupted source ends the sequence after the values sent before it")
    func interruptedEnds() async throws {
        let (signal, input) = Signal<Int, TestError>.pipe()
        var iterator = signal.values.makeAsyncIterator()
        input.send(value: 1)
        input.sendInterrupted()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == nil)
    }

    @Test("values sent from another thread reach a consumer that may already be waiting")
    func waitingConsumer() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        let iterator = signal.values.makeAsyncIterator()
        let reading = Task {
            var iterator = iterator
            var received: [Int] = []
            while let value = await iterator.next() { received.append(value) }
            return received
        }
        for _ in 0..<10 { await Task.yield() }
        DispatchQueue(label: "sender").sync {
            input.send(value: 1)
            input.send(value: 2)
            input.sendCompleted()
        }
        #expect(await value(of: reading) == [1, 2])
    }

    @Test("R15: breaking out of the loop disposes the run")
    func R15_breakDisposes() async {
        let runs = RunLog()
        for await _ in Self.endless(runs, sending: [1, 2]).values { break }
        #expect(await eventuallyPolling { runs.ended == 1 })
        #expect(runs.started == 1)
    }

    @Test("R15: cancelling the consuming task disposes the run and ends the loop")
    func R15_taskCancellationDisposes() async {
        let runs = RunLog()
        let producer = Self.endless(runs, sending: [1])
        let consumer = Task {
            var received: [Int] = []
            for await value in producer.values { received.append(value) }
            return received
        }
        #expect(await eventuallyPolling { runs.started == 1 })
        consumer.cancel()
        #expect(await eventuallyPolling { runs.ended == 1 })
        let received = await value(of: consumer)
        #expect(received == [] || received == [1])
    }

    @Test("R15: a task cancelled before it iterates disposes its run at the first next()")
    func R15_cancelledBeforeNext() async {
        let runs = RunLog()
        let producer = Self.endless(runs, sending: [1, 2, 3])
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = producer.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await value(of: consumer) == .some(nil))
        #expect(runs.ended == 1)
    }

    @Test("R15: a synchronous producer of 20,000 values and a slow consumer: every value once, in order")
    func R15_fastProducerSlowConsumer() async {
        let count = stressRounds(20_000)
        var received: [Int] = []
        received.reserveCapacity(count)
        for await value in SignalProducer<Int, Never>(values: 0..<count).values {
            received.append(value)
            await Task.yield()
        }
        let exact = received == Array(0..<count)
        #expect(exact, "\(received.count) values, not 0..<\(count) once each in order")
    }

    @Test("R15: 20,000 values sent from another thread to a slow consumer: every value once, in order")
    func R15_otherThreadProducer() async {
        let count = stressRounds(20_000)
        let producer = SignalProducer<Int, Never> { observer, lifetime in
            DispatchQueue.global().async {
                for value in 0..<count {
                    guard !lifetime.hasEnded else { return }
                    observer.send(value: value)
                }
                observer.sendCompleted()
            }
        }
        var received: [Int] = []
        received.reserveCapacity(count)
        for await value in producer.values {
            received.append(value)
            if value % 3 == 0 { await Task.yield() }
        }
        let exact = received == Array(0..<count)
        #expect(exact, "\(received.count) values, not 0..<\(count) once each in order")
    }

    @Test("bufferingNewest keeps the latest values, dropping the oldest")
    func bufferingNewest() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        var iterator = signal.values(bufferingPolicy: .bufferingNewest(2)).makeAsyncIterator()
        for value in 1...4 { input.send(value: value) }
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == 4)
        input.send(value: 5)
        input.sendCompleted()
        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == nil)
    }

    @Test("bufferingOldest keeps the first values, dropping new ones while full")
    func bufferingOldest() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        var iterator = signal.values(bufferingPolicy: .bufferingOldest(2)).makeAsyncIterator()
        for value in 1...4 { input.send(value: value) }
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        input.send(value: 5)
        input.sendCompleted()
        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == nil)
    }

    @Test("bufferingNewest(0) drops values nobody is waiting for")
    func bufferingNone() async {
        let (signal, input) = Signal<Int, Never>.pipe()
        var iterator = signal.values(bufferingPolicy: .bufferingNewest(0)).makeAsyncIterator()
        input.send(value: 1)
        input.sendCompleted()
        #expect(await iterator.next() == nil)
    }

    @Test("a negative buffer limit traps with a message naming bufferingPolicy")
    func negativeLimitTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SignalProducer<Int, Never>.never.values(bufferingPolicy: .bufferingOldest(-1))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("bufferingPolicy"))
    }

    @Test("R8: a producer's run is freed after the loop ends by completion, break or cancellation")
    func R8_producerRunsFreed() async {
        let runs = RunLog()
        do {
            let completing = SignalProducer<Int, Never> { observer, lifetime in
                runs.track(observer, lifetime)
                observer.send(value: 1)
                observer.sendCompleted()
            }
            for await _ in completing.values {}
            for await _ in Self.endless(runs, sending: [1]).values { break }
            let endless = Self.endless(runs)
            let consumer = Task { for await _ in endless.values {} }
            #expect(await eventuallyPolling { runs.started == 3 })
            consumer.cancel()
            #expect(await value(of: consumer) != nil)
        }
        #expect(await eventuallyPolling { runs.alive == 0 })
        #expect(runs.ended == 3)
    }

    @Test("R8: values still buffered are freed when the consumer leaves early")
    func R8_bufferedValuesFreed() async {
        let tracker = LifetimeTracker()
        do {
            let producer = SignalProducer<LifetimeTracker.Tracked, Never> { observer, _ in
                for _ in 0..<10 { observer.send(value: tracker.instance()) }
            }
            for await _ in producer.values { break }
        }
        #expect(tracker.created == 10)
        #expect(await eventuallyPolling { tracker.live == 0 })
    }

    @Test("R8: releasing a signal's iterator detaches its observer, so an unreachable signal tears down")
    func R8_signalIteratorDetaches() async {
        let ended = Locked(false)
        let input = Locked<Signal<Int, Never>.Observer?>(nil)
        weak var weakLifetime: Lifetime?
        do {
            var iterator: AsyncValues<Int, Never>.Iterator? = Signal<Int, Never> { observer, lifetime in
                input.value = observer
                weakLifetime = lifetime
                lifetime.observeEnded { ended.value = true }
            }.values.makeAsyncIterator()
            input.value?.send(value: 1)
            #expect(await iterator?.next() == 1)
            #expect(!ended.value)
            iterator = nil
            #expect(ended.value)
        }
        input.value = nil
        #expect(weakLifetime == nil)
    }

    @Test("R8: a signal is freed after a loop over it ends by completion")
    func R8_signalFreedAfterCompletion() async {
        let weakLifetime = Locked<WeakReference?>(nil)
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            let probe = Signal<Int, Never> { observer, lifetime in
                weakLifetime.value = WeakReference(lifetime)
                lifetime += signal.observe(observer)
            }
            var iterator = probe.values.makeAsyncIterator()
            let reading = Task {
                var received: [Int] = []
                while let value = await iterator.next() { received.append(value) }
                return received
            }
            input.send(value: 1)
            input.sendCompleted()
            #expect(await value(of: reading) == [1])
        }
        #expect(await eventuallyPolling { weakLifetime.value?.isFreed == true })
    }
}
