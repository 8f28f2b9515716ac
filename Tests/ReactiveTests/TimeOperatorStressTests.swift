import Dispatch
import Reactive
import TestSupport
import Testing

/// Real threads against a `QueueScheduler`: senders race the operator's timers on the queue (TSan).
@Suite("Time operators: real threads")
struct TimeOperatorStressTests {
    private static let senders = 4
    private static let perSender = 2_000

    private struct Tagged: Sendable, Equatable {
        let thread: Int
        let index: Int
    }

    /// Sends from `senders` threads released together, then completes, and waits for the completion
    /// to come out of `operator`. Returns what the source delivered, in order, and what came out.
    private static func race(
        _ operator: (Signal<Tagged, Never>) -> Signal<Tagged, Never>
    ) -> (source: [Tagged], output: [Tagged], completed: Bool) {
        let (signal, input) = Signal<Tagged, Never>.pipe()
        let source = Locked<[Tagged]>([])
        signal.observeValues { source.append($0) }
        let output = Locked<[Tagged]>([])
        let done = DispatchSemaphore(value: 0)
        `operator`(signal).observe { event in
            switch event {
            case .value(let value): output.append(value)
            case .completed: done.signal()
            default: break
            }
        }
        raceFromBarrier(threads: senders) { thread in
            for index in 0..<perSender { input.send(value: Tagged(thread: thread, index: index)) }
        }
        input.sendCompleted()
        let completed = done.wait(timeout: .now() + 60) == .success
        return (source.value, output.value, completed)
    }

    /// Whether `values` is `source` with some elements left out (order kept, nothing repeated or added).
    private static func isSubsequence(_ values: [Tagged], of source: [Tagged]) -> Bool {
        var remaining = source[...]
        for value in values {
            guard let index = remaining.firstIndex(of: value) else { return false }
            remaining = remaining[(index + 1)...]
        }
        return true
    }

    @Test("delay on a queue: every value arrives once, in the source's order, then completion")
    func delayStress() {
        let scheduler = QueueScheduler(label: "stress.delay")
        let result = Self.race { $0.delay(.microseconds(50), on: scheduler) }
        #expect(result.completed)
        #expect(result.output == result.source)
        #expect(result.output.count == Self.senders * Self.perSender)
    }

    @Test("throttle on a queue: a subsequence of the source in order, ending with its last value")
    func throttleStress() {
        let scheduler = QueueScheduler(label: "stress.throttle")
        let result = Self.race { $0.throttle(.microseconds(100), on: scheduler) }
        #expect(result.completed)
        #expect(Self.isSubsequence(result.output, of: result.source))
        #expect(result.output.last == result.source.last)
    }

    @Test("debounce on a queue: a subsequence of the source in order, ending with its last value")
    func debounceStress() {
        let scheduler = QueueScheduler(label: "stress.debounce")
        let result = Self.race { $0.debounce(.microseconds(20), on: scheduler) }
        #expect(result.completed)
        #expect(Self.isSubsequence(result.output, of: result.source))
        #expect(result.output.last == result.source.last)
    }

    @Test("timeout on a queue: values pass through in order, then the completion wins over a distant timer")
    func timeoutStress() {
        let scheduler = QueueScheduler(label: "stress.timeout")
        let result = Self.race { signal in
            signal.timeout(after: .seconds(3600), raising: TimeoutError(), on: scheduler)
                .failuresAsInterruptionForTest()
        }
        #expect(result.completed)
        #expect(result.output == result.source)
    }

    private struct TimeoutError: Error {}
}

extension Signal {
    /// Drops a failure (turning it into an interruption), for tests that only look at values.
    fileprivate func failuresAsInterruptionForTest() -> Signal<Value, Never> {
        Signal<Value, Never> { output, lifetime in
            lifetime += observe { event in
                switch event {
                case .value(let value): output.send(value: value)
                case .completed: output.sendCompleted()
                case .failed, .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}
