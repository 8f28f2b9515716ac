import Reactive
import TestSupport
import Testing

@Suite("Signal")
struct SignalTests {
    enum TestError: Error, Equatable { case boom }

    @Test("delivers values then one terminal event, and nothing after it")
    func eventGrammar() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.record()
        input.send(value: 1)
        input.send(value: 2)
        input.send(error: .boom)
        input.send(value: 3)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .failed(.boom)])
    }

    @Test("an observer attached after termination gets the terminal event at once")
    func lateObserver() {
        let (signal, input) = Signal<Int, Never>.pipe()
        input.sendCompleted()
        #expect(signal.record().events == [.completed])
    }

    @Test("R1: values sent by observers during delivery reach every observer in FIFO order at depth 1")
    func R1_reentrantSendIsQueuedFIFO() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let depth = Locked(0)
        let maxDepth = Locked(0)
        let logs = (0..<3).map { _ in Locked<[Int]>([]) }
        for index in 0..<3 {
            signal.observeValues { value in
                depth.withLock { $0 += 1 }
                maxDepth.withLock { $0 = max($0, depth.value) }
                logs[index].append(value)
                if value == 0 && index == 0 {
                    input.send(value: 10)
                    input.send(value: 100)
                }
                if value == 0 && index == 1 {
                    input.send(value: 20)
                    input.send(value: 200)
                }
                depth.withLock { $0 -= 1 }
            }
        }
        input.send(value: 0)
        for log in logs {
            #expect(log.value == [0, 10, 100, 20, 200])
        }
        #expect(maxDepth.value == 1)
    }

    @Test("R5: an observer disposed by another observer during delivery does not get that event")
    func R5_disposalWins() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let second = Locked<(any Disposable)?>(nil)
        let log = Locked<[Int]>([])
        signal.observeValues { _ in second.value?.dispose() }
        second.value = signal.observeValues { log.append($0) }
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.value == [])
    }

    @Test("R7: an observer added during a delivery gets only later events")
    func R7_observerAddedDuringDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = EventRecorder<Int, Never>()
        signal.observeValues { value in
            if value == 1 { signal.observe(late.observer) }
        }
        input.send(value: 1)
        input.send(value: 2)
        #expect(late.values == [2])
    }

    @Test("R8: a signal whose input is released interrupts")
    func R8_releasedInputInterrupts() {
        let recorder = EventRecorder<Int, Never>()
        do {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.observe(recorder.observer)
            input.send(value: 1)
        }
        #expect(recorder.events == [.value(1), .interrupted])
    }

    @Test("R6: concurrent senders never overlap deliveries")
    func R6_serializedDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let inFlight = Locked(0)
        nonisolated(unsafe) var plainCount = 0
        let overlaps = Locked(0)
        signal.observeValues { _ in
            if inFlight.withLock({ value -> Int in
                value += 1
                return value
            }) != 1 {
                overlaps.increment(by: 1)
            }
            plainCount += 1
            inFlight.withLock { $0 -= 1 }
        }
        raceFromBarrier(threads: 8) { _ in
            for value in 0..<5_000 { input.send(value: value) }
        }
        #expect(overlaps.value == 0)
        #expect(plainCount == 40_000)
    }
}
