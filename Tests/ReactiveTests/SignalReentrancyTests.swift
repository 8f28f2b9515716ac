import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Signal reentrancy")
struct SignalReentrancyTests {
    /// A value sent by one of the racing threads, or re-sent by an observer.
    struct Tagged: Sendable, Equatable {
        let sender: Int
        let index: Int
        var echoedBy: Int?
    }

    @Test("R1: a feedback loop through the observer's own signal runs iteratively on a 256 KiB stack")
    func R1_feedbackLoopIsIterative() {
        let log = Locked<[Int]>([])
        let finished = finishesWithin(seconds: 30, stackSize: 256 * 1024) {
            let (signal, input) = Signal<Int, Never>.pipe()
            signal.observeValues { value in
                log.append(value)
                if value < 20_000 { input.send(value: value + 1) }
            }
            input.send(value: 1)
        }
        #expect(finished)
        #expect(log.value == Array(1...20_000))
    }

    @Test("R1: a mapped feedback loop sends each value once, in order")
    func R1_mappedFeedbackLoop() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = Locked<[Int]>([])
        signal.map { $0 + 1 }.observeValues { value in
            log.append(value)
            if value < 6 { input.send(value: value) }
        }
        input.send(value: 1)
        #expect(log.value == [2, 3, 4, 5, 6])
    }

    @Test("R1: 4 threads x 10k sends, observers re-send multiples of 7: every observer sees one total order")
    func R1_reentrantStressIdenticalOrder() {
        let threads = 4
        let perThread = 10_000
        let observers = 3
        let (signal, input) = Signal<Tagged, Never>.pipe()
        // Unsynchronised on purpose: serialised delivery orders every access (TSan probe).
        let logs = (0..<observers).map { _ in Unsynchronized<[Tagged]>([]) }
        for observer in 0..<observers {
            signal.observeValues { tagged in
                logs[observer].value.append(tagged)
                if tagged.echoedBy == nil && tagged.index % 7 == 0 {
                    var echo = tagged
                    echo.echoedBy = observer
                    input.send(value: echo)
                }
            }
        }
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: threads) { sender in
                for index in 0..<perThread { input.send(value: Tagged(sender: sender, index: index)) }
            }
        }
        #expect(finished, "deadlock: the senders did not finish")
        let multiplesOfSeven = (0..<perThread).filter { $0 % 7 == 0 }.count
        let expectedCount = threads * perThread + threads * multiplesOfSeven * observers
        #expect(logs[0].value.count == expectedCount)
        for log in logs.dropFirst() {
            #expect(log.value == logs[0].value)
        }
        // Each echo comes after its original, and each sender's originals keep their order.
        var seen = Set<[Int]>()
        var misplacedEchoes = 0
        var next = Array(repeating: 0, count: threads)
        var outOfOrder = 0
        for tagged in logs[0].value {
            if tagged.echoedBy == nil {
                seen.insert([tagged.sender, tagged.index])
                if tagged.index != next[tagged.sender] { outOfOrder += 1 }
                next[tagged.sender] = tagged.index + 1
            } else if !seen.contains([tagged.sender, tagged.index]) {
                misplacedEchoes += 1
            }
        }
        #expect(misplacedEchoes == 0)
        #expect(outOfOrder == 0)
    }

    @Test("R3: a deinit during delivery that completes the delivering signal ends the log with one completed")
    func R3_deinitDuringDeliveryCompletes() {
        final class Finisher: Sendable {
            let input: Signal<Int, Never>.Observer
            init(input: Signal<Int, Never>.Observer) { self.input = input }
            deinit { input.sendCompleted() }
        }
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        let finished = finishesWithin(seconds: 30) {
            let (signal, input) = Signal<Int, Never>.pipe()
            let holder = Locked<Finisher?>(Finisher(input: input))
            signal.observe { event in
                first.observer.send(event)
                if event == .value(1) {
                    // Drops the last strong reference: the deinit sends completed into this very signal.
                    holder.value = nil
                    input.send(value: 2)
                }
            }
            signal.observe(second.observer)
            input.send(value: 1)
            input.send(value: 3)
            input.sendCompleted()
        }
        #expect(finished, "deadlock in a deinit during delivery")
        #expect(first.events == [.value(1), .completed])
        #expect(second.events == [.value(1), .completed])
    }

    @Test("R3: a terminal event sent from another thread during a delivery is queued behind it")
    func R3_crossThreadTerminalDuringDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = EventRecorder<Int, Never>()
        signal.observe { event in
            recorder.observer.send(event)
            if event == .value(1) {
                // Another thread completes while this delivery runs: it queues and returns.
                DispatchQueue(label: "R3.terminal").sync { input.sendCompleted() }
                input.send(value: 2)
            }
        }
        input.send(value: 1)
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test("R7: an observer removed during a delivery gets neither that event nor later ones")
    func R7_observerRemovedDuringDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let removed = EventRecorder<Int, Never>()
        let removal = Locked<(any Disposable)?>(nil)
        let first = signal.record()
        signal.observeValues { value in
            if value == 1 { removal.value?.dispose() }
        }
        removal.value = signal.observe(removed.observer)
        let last = signal.record()
        input.send(value: 1)
        input.send(value: 2)
        #expect(removed.events == [])
        #expect(first.values == [1, 2])
        #expect(last.values == [1, 2])
    }

    @Test("R7: observers added and removed during deliveries see only the events sent after they attached")
    func R7_addAndRemoveDuringDelivery() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let added = Locked<[EventRecorder<Int, Never>]>([])
        let observations = Locked<[any Disposable]>([])
        signal.observeValues { value in
            let recorder = EventRecorder<Int, Never>()
            added.append(recorder)
            observations.append(signal.observe(recorder.observer))
            if value == 3 { observations.value.first?.dispose() }
        }
        for value in 1...4 { input.send(value: value) }
        // The first, disposed during 3 before its turn, misses 3; each gets only later events.
        #expect(added.value.map(\.values) == [[2], [3, 4], [4], []])
    }

    @Test("R7: 4 threads add and remove observers while 4 threads send, without deadlock or overlap")
    func R7_addRemoveStress() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let permanent = Unsynchronized<[Int]>([])
        let inFlight = Unsynchronized(0)
        let overlaps = Unsynchronized(0)
        signal.observeValues { value in
            inFlight.value += 1
            if inFlight.value != 1 { overlaps.value += 1 }
            permanent.value.append(value)
            inFlight.value -= 1
        }
        let lateCounts = Locked<[Locked<Int>]>([])
        let disorder = Locked(0)
        let perSender = 5_000
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 8) { thread in
                if thread < 4 {
                    for index in 0..<perSender { input.send(value: thread * perSender + index) }
                } else {
                    for _ in 0..<1_000 {
                        let returned = Flag()
                        let late = Locked(0)
                        lateCounts.append(late)
                        let last = Unsynchronized([Int](repeating: -1, count: 4))
                        let observation = signal.observeValues { value in
                            if returned.isSet { late.increment(by: 1) }
                            let sender = value / perSender
                            if value <= last.value[sender] { disorder.increment(by: 1) }
                            last.value[sender] = value
                        }
                        observation.dispose()
                        returned.set()
                    }
                }
            }
        }
        #expect(finished, "deadlock: adders, removers and senders did not finish")
        #expect(overlaps.value == 0)
        #expect(disorder.value == 0)
        // Only the one delivery a drainer had committed to before the dispose may start late.
        #expect(lateCounts.value.count == 4 * 1_000)
        #expect(lateCounts.value.map(\.value).allSatisfy { $0 <= 1 })
        #expect(permanent.value.count == 4 * perSender)
        for sender in 0..<4 {
            let own = permanent.value.filter { $0 / perSender == sender }
            #expect(own == Array(sender * perSender..<(sender + 1) * perSender))
        }
    }

    @Test("R3: a queued value whose deinit sends into the signal is released by the drain without deadlock")
    func R3_valueDeinitSendsIntoSignal() {
        final class Token: Sendable {
            let input: Signal<Payload, Never>.Observer
            init(input: Signal<Payload, Never>.Observer) { self.input = input }
            deinit { input.sendCompleted() }
        }
        enum Payload: Sendable {
            case start
            case token(Token)
            case after
        }
        let log = Locked<[String]>([])
        let finished = finishesWithin(seconds: 10) {
            let (signal, input) = Signal<Payload, Never>.pipe()
            signal.observe { event in
                switch event {
                case .value(.start):
                    log.append("start")
                    // Both queued; the drainer holds the last reference to the token while it delivers it
                    // and lets go of it when it moves on to the next event.
                    input.send(value: .token(Token(input: input)))
                    input.send(value: .after)
                case .value(.token): log.append("token")
                case .value(.after): log.append("after")
                case .completed: log.append("completed")
                case .failed, .interrupted: log.append("other")
                }
            }
            input.send(value: .start)
        }
        #expect(finished, "deadlock: the drain released a value while holding the signal's lock")
        #expect(log.value == ["start", "token", "after", "completed"])
    }

    @Test("R3: an observer whose handler's deinit sends into the signal can be disposed during a delivery")
    func R3_handlerDeinitSendsIntoSignal() {
        final class Sender: Sendable {
            let input: Signal<Int, Never>.Observer
            init(input: Signal<Int, Never>.Observer) { self.input = input }
            deinit { input.send(value: 100) }
        }
        let log = Locked<[Int]>([])
        let finished = finishesWithin(seconds: 10) {
            let (signal, input) = Signal<Int, Never>.pipe()
            let doomed = Locked<(any Disposable)?>(nil)
            signal.observeValues { value in
                log.append(value)
                if value == 0 {
                    // A new observer makes the signal copy its observer list, so the snapshot taken when 1
                    // is dequeued is the only holder of the doomed entry once it is detached.
                    signal.observeValues { _ in }
                    input.send(value: 1)
                }
                if value == 1 {
                    // 1 was queued, so the drainer's snapshot of the observers dates from its dequeue.
                    input.send(value: 2)
                    // The last references to the observation and its handler go here.
                    doomed.value?.dispose()
                    doomed.value = nil
                }
            }
            doomed.value = {
                let sender = Sender(input: input)
                return signal.observeValues { _ in withExtendedLifetime(sender) {} }
            }()
            input.send(value: 0)
        }
        #expect(finished, "deadlock: a handler was released while holding the signal's lock")
        #expect(log.value == [0, 1, 2, 100])
    }
}
