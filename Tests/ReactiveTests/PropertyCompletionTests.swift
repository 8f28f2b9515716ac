import Reactive
import TestSupport
import Testing

@Suite("Properties complete with their sources")
struct PropertyCompletionTests {
    @Test("R20: a property fed by a signal completes its producer when the signal completes")
    func R20_signalSourceCompletes() {
        let (source, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: source)
        let (log, _) = property.producer.record()
        let changes = property.signal.record()
        input.send(value: 1)
        input.sendCompleted()
        #expect(log.events == [.value(0), .value(1), .completed])
        #expect(changes.events == [.value(1), .completed])
        #expect(property.value == 1)
        #expect(property.producer.record().0.events == [.value(1), .completed])
        #expect(property.signal.record().events == [.completed])
    }

    @Test("R20: an interrupted source completes the property; it is not interrupted")
    func R20_interruptedSourceCompletes() {
        let (source, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: source)
        let (log, _) = property.producer.record()
        input.send(value: 1)
        input.sendInterrupted()
        #expect(log.events == [.value(0), .value(1), .completed])
    }

    @Test("R20: a property fed by a producer keeps the last value and completes with the run")
    func R20_producerSourceCompletes() {
        let property = Property(initial: 0, then: SignalProducer<Int, Never>(values: [1, 2]))
        #expect(property.value == 2)
        #expect(property.producer.record().0.events == [.value(2), .completed])
    }

    @Test("R20: map and skipRepeats complete with their source; combineLatest once both sources have")
    func R20_derivedComplete() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let a = Property(initial: 1, then: first)
        let b = Property(initial: 10, then: second)
        let (mapped, _) = a.map { $0 * 2 }.producer.record()
        let (distinct, _) = a.skipRepeats().producer.record()
        let (combined, _) = a.combineLatest(with: b).map { $0 + $1 }.producer.record()
        firstInput.send(value: 1)
        firstInput.send(value: 2)
        firstInput.sendCompleted()
        #expect(mapped.events == [.value(2), .value(2), .value(4), .completed])
        #expect(distinct.events == [.value(1), .value(2), .completed])
        #expect(combined.events == [.value(11), .value(11), .value(12)])
        secondInput.send(value: 20)
        secondInput.sendCompleted()
        #expect(combined.events == [.value(11), .value(11), .value(12), .value(22), .completed])
    }

    @Test("R20: flatMap(.latest) over the producer of a completed property completes")
    func R20_flatMapLatestCompletes() {
        let (source, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: source)
        let (log, _) = property.producer.flatMap(.latest) { SignalProducer<Int, Never>(value: $0 * 10) }.record()
        input.send(value: 1)
        input.sendCompleted()
        #expect(log.events == [.value(0), .value(10), .completed])
    }

    @Test("R20: a for-await loop over a property's values ends when its source completes")
    func R20_valuesLoopEnds() async {
        let (source, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: source)
        let seen = Locked<[Int]>([])
        let finished = Flag()
        let consumer = Task {
            for await value in property.values { seen.append(value) }
            finished.set()
        }
        #expect(await eventuallyPolling { seen.value == [0] })
        input.send(value: 1)
        input.sendCompleted()
        #expect(await eventuallyPolling(polls: 1_000) { finished.isSet })
        consumer.cancel()
        #expect(seen.value == [0, 1])
    }

    @Test("R20: the feed and the source are released at completion, while the property lives")
    func R20_sourceReleasedAtCompletion() {
        let leaks = LeakCheck()
        let tracker = LifetimeTracker()
        let property: Property<Int> = {
            let (source, input) = Signal<Int, Never>.pipe()
            let token = tracker.instance()
            let mapped = Property(initial: 0, then: source).map { value in withExtendedLifetime(token) { value } }
            leaks.track(source, "source")
            input.send(value: 3)
            input.sendCompleted()
            return mapped
        }()
        #expect(property.value == 3)
        #expect(leaks.survivors == [])
        #expect(tracker.live == 0)
    }

    @Test("R20: the source completes on one thread while 8 threads start the producer (barrier, 1,000 rounds)")
    func R20_completionRacingReadersStress() {
        let failures = Locked<[String]>([])
        for _ in 0..<1_000 {
            let (source, input) = Signal<Int, Never>.pipe()
            let property = Property(initial: 0, then: source)
            let logs = Locked<[EventRecorder<Int, Never>]>([])
            raceFromBarrier(threads: 9) { thread in
                if thread == 0 {
                    input.send(value: 1)
                    input.send(value: 2)
                    input.sendCompleted()
                } else {
                    logs.append(property.producer.record().0)
                }
            }
            for log in logs.value {
                let events = log.events
                let isValid =
                    events.last == .completed && events.dropLast().allSatisfy { !$0.isTerminating }
                    && log.values.last == 2 && log.values == log.values.sorted()
                if !isValid { failures.append("\(events)") }
            }
        }
        #expect(failures.value == [])
    }
}
