import Dispatch
import Foundation
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

    // MARK: R4: event grammar

    @Test("R4: values and terminals sent after a terminal event are ignored without a trap")
    func R4_sendsAfterTerminalAreIgnored() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.record()
        input.sendCompleted()
        input.send(value: 1)
        input.send(error: .boom)
        input.sendInterrupted()
        input.sendCompleted()
        #expect(recorder.events == [.completed])
        #expect(signal.record().events == [.completed])
    }

    @Test("R4: a second terminal event is ignored, whichever kind it is")
    func R4_doubleTerminal() {
        for first in [Signal<Int, TestError>.Event.completed, .failed(.boom), .interrupted] {
            let (signal, input) = Signal<Int, TestError>.pipe()
            let recorder = signal.record()
            input.send(value: 1)
            input.send(first)
            input.send(error: .boom)
            input.sendCompleted()
            input.sendInterrupted()
            #expect(recorder.events == [.value(1), first])
            #expect(signal.record().events == [first])
        }
    }

    @Test("R4: an observer attached after a teardown gets interrupted at once")
    func R4_lateObserverOfTornDownSignalIsInterrupted() {
        let signal: Signal<Int, Never> = {
            let (signal, input) = Signal<Int, Never>.pipe()
            withExtendedLifetime(input) {}
            return signal
        }()
        #expect(signal.record().events == [.interrupted])
    }

    @Test("R4: an observer attached to the signal of a disposed producer run gets interrupted at once")
    func R4_lateObserverOfDisposedProducerIsInterrupted() {
        let started = Locked(0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            started.increment(by: 1)
            observer.send(value: 1)
        }
        let late = producer.startWithSignal { signal, interrupter -> EventRecorder<Int, Never> in
            interrupter.dispose()
            return signal.record()
        }
        #expect(late.events == [.interrupted])
        #expect(started.value == 0)
    }

    @Test("R4: a terminal event sent during a delivery follows the queued values, and later sends are dropped")
    func R4_terminalDuringDeliveryIsQueued() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let first = EventRecorder<Int, Never>()
        signal.observe { event in
            first.observer.send(event)
            if event == .value(1) {
                input.send(value: 2)
                input.sendCompleted()
                input.send(value: 3)
            }
        }
        let second = signal.record()
        input.send(value: 1)
        input.send(value: 4)
        #expect(first.events == [.value(1), .value(2), .completed])
        #expect(second.events == [.value(1), .value(2), .completed])
    }

    @Test("R4: an observer attached while the terminal event is being delivered gets it too")
    func R4_observerAttachedDuringTerminalDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let late = EventRecorder<Int, Never>()
        let lateDuringValue = EventRecorder<Int, Never>()
        signal.observe { event in
            if event == .value(1) {
                signal.observe(lateDuringValue.observer)
                input.sendCompleted()
            }
            if event == .completed { signal.observe(late.observer) }
        }
        let other = signal.record()
        input.send(value: 1)
        #expect(other.events == [.value(1), .completed])
        #expect(lateDuringValue.events == [.completed])
        #expect(late.events == [.completed])
        #expect(signal.record().events == [.completed])
    }

    @Test("R4: an interruption while a delivery is blocked ends the log exactly once, after the queued values")
    func R4_interruptionWhileDeliveryBlocks() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = Unsynchronized<[Signal<Int, Never>.Event]>([])
        signal.observe { event in
            log.value.append(event)
            if event == .value(0) {
                entered.signal()
                release.wait()
            }
        }
        let done = DispatchSemaphore(value: 0)
        let delivering = Thread {
            input.send(value: 0)
            done.signal()
        }
        delivering.start()
        entered.wait()
        // The delivery of 0 blocks; ten senders and an interrupter race meanwhile: each queues and returns.
        raceFromBarrier(threads: 11) { thread in
            if thread == 10 {
                input.sendInterrupted()
            } else {
                for value in 1...100 { input.send(value: thread * 1_000 + value) }
            }
        }
        release.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        let events = log.value
        #expect(events.filter(\.isTerminating) == [.interrupted])
        #expect(events.last == .interrupted)
        #expect(events.first == .value(0))
    }

    @Test("R4: 1,000 pipes each raced by a sender and an interrupter end with exactly one interrupted")
    func R4_interruptConcurrently() {
        let pipes = (0..<1_000).map { _ in Signal<Int, Never>.pipe() }
        let logs = pipes.map { pipe in
            let log = Locked<[Signal<Int, Never>.Event]>([])
            pipe.output.observe { log.append($0) }
            return log
        }
        raceFromBarrier(threads: 2) { thread in
            for (_, input) in pipes {
                if thread == 0 {
                    input.send(value: 1)
                    input.send(value: 2)
                } else {
                    input.sendInterrupted()
                }
            }
        }
        for log in logs {
            let events = log.value
            #expect(events.filter(\.isTerminating) == [.interrupted])
            #expect(events.last == .interrupted)
            #expect([[], [.value(1)], [.value(1), .value(2)]].contains(Array(events.dropLast())))
        }
    }

    // MARK: R6: serialised delivery

    @Test("R6: 8 racers x 20k sends: no overlap (unsynchronised probe), all delivered, each sender's order kept")
    func R6_serializedDeliveryStress() {
        struct Tagged: Sendable {
            let sender: Int
            let index: Int
        }
        let senders = 8
        let perSender = 20_000
        let (signal, input) = Signal<Tagged, Never>.pipe()
        // Touched only by observer callouts: TSan reports a race if two deliveries are not ordered.
        let inFlight = Unsynchronized(0)
        let overlaps = Unsynchronized(0)
        let log = Unsynchronized<[Tagged]>([])
        log.value.reserveCapacity(senders * perSender)
        signal.observeValues { tagged in
            inFlight.value += 1
            if inFlight.value != 1 { overlaps.value += 1 }
            log.value.append(tagged)
            inFlight.value -= 1
        }
        raceFromBarrier(threads: senders) { sender in
            for index in 0..<perSender { input.send(value: Tagged(sender: sender, index: index)) }
        }
        #expect(overlaps.value == 0)
        #expect(log.value.count == senders * perSender)
        var next = Array(repeating: 0, count: senders)
        var outOfOrder = 0
        for tagged in log.value {
            if tagged.index != next[tagged.sender] { outOfOrder += 1 }
            next[tagged.sender] = tagged.index + 1
        }
        #expect(outOfOrder == 0)
        #expect(next == Array(repeating: perSender, count: senders))
    }
}
