import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Property")
struct PropertyTests {
    // MARK: R2: reentrant sets

    @Test("R2: setting the property from its own observer gives [1, 2, 3]; a read after the set sees it")
    func R2_recursiveSetFromObserver() {
        let property = MutableProperty(0)
        let log = Locked<[Int]>([])
        let readsAfterSet = Locked<[Int]>([])
        property.signal.observeValues { value in
            log.append(value)
            if value < 3 {
                property.value = value + 1
                // The write commits at once; its notification is queued behind this one (a reentrant write).
                readsAfterSet.append(property.value)
            }
        }
        property.value = 1
        #expect(log.value == [1, 2, 3])
        #expect(readsAfterSet.value == [2, 3])
        #expect(property.value == 3)
    }

    @Test("R2: every observer sees the reentrant sets in the order they were stored")
    func R2_allObserversSeeStoreOrder() {
        let property = MutableProperty(0)
        let first = Locked<[Int]>([])
        let second = Locked<[Int]>([])
        property.signal.observeValues { value in
            first.append(value)
            if value == 1 { property.value = 2 }
        }
        property.signal.observeValues { value in
            second.append(value)
            if value == 1 { property.value = 3 }
        }
        property.value = 1
        #expect(first.value == [1, 2, 3])
        #expect(second.value == [1, 2, 3])
        #expect(property.value == 3)
    }

    @Test("R2: an A to B to A feedback loop between two properties settles consistently")
    func R2_abaFeedbackLoop() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let aLog = Locked<[Int]>([])
        let bLog = Locked<[Int]>([])
        a.signal.observeValues { value in
            aLog.append(value)
            b.value = value * 10
        }
        b.signal.observeValues { value in
            bLog.append(value)
            if a.value < 3 { a.value = a.value + 1 }
        }
        let finished = finishesWithin(seconds: 10) { a.value = 1 }
        #expect(finished)
        #expect(aLog.value == [1, 2, 3])
        #expect(bLog.value == [10, 20, 30])
        #expect(a.value == 3)
        #expect(b.value == 30)
    }

    // ReactiveSwift PropertySpec's four no-deadlock cases.

    @Test("R2: no deadlock on recursive value access")
    func R2_recursiveValueAccess() {
        let property = MutableProperty(0)
        let seen = Locked<[Int]>([])
        let finished = finishesWithin(seconds: 10) {
            property.producer.startWithValues { _ in seen.append(property.value) }
            property.value = 1
        }
        #expect(finished)
        #expect(seen.value == [0, 1])
    }

    @Test("R2: no deadlock on recursive value access with a closure (a binding feeds the property)")
    func R2_recursiveValueAccessWithClosure() {
        let (values, input) = Signal<Int, Never>.pipe()
        let property = MutableProperty(0)
        let seen = Locked<Int?>(nil)
        let finished = finishesWithin(seconds: 10) {
            property <~ values
            property.producer.startWithValues { _ in
                seen.value = property.map { $0 + 1 }.value
            }
            input.send(value: 10)
        }
        #expect(finished)
        #expect(seen.value == 11)
    }

    @Test("R2: no deadlock on recursive observation")
    func R2_recursiveObservation() {
        let property = MutableProperty(0)
        let seen = Locked<[Int]>([])
        let finished = finishesWithin(seconds: 10) {
            property.producer.startWithValues { _ in
                property.producer.startWithValues { seen.append($0) }
            }
            property.value = 1
        }
        #expect(finished)
        // The inner producer started during the delivery of 0 gets 0, then 1; the one started during 1
        // gets 1 (its current value) and nothing it already had.
        #expect(seen.value == [0, 1, 1])
    }

    @Test("R2: no deadlock on recursive ABA observation")
    func R2_recursiveABAObservation() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let seen = Locked<Int?>(nil)
        let finished = finishesWithin(seconds: 10) {
            a.producer.startWithValues { _ in
                b.producer.startWithValues { _ in
                    a.producer.startWithValues { seen.value = $0 }
                }
            }
        }
        #expect(finished)
        #expect(seen.value == 0)
        a.value = 1
        #expect(seen.value == 1)
    }

    @Test("R2: 8 writers and an observer that also writes: the final value is the last one observed")
    func R2_concurrentWritersAndWritingObserver() {
        let property = MutableProperty(0)
        let log = Unsynchronized<[Int]>([])
        property.signal.observeValues { value in
            log.value.append(value)
            // Writes back on a condition: a negative value, which does not trigger again.
            if value > 0 && value % 10 == 0 { property.value = -value }
        }
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 8) { thread in
                for index in 1...2_000 { property.value = thread * 10_000 + index }
            }
        }
        #expect(finished, "deadlock between writers and a writing observer")
        #expect(log.value.last == property.value)
        #expect(log.value.count == 8 * 2_000 + 8 * 200)
    }

    // MARK: R10: producer = current value, then changes

    @Test("R10: a producer started during a set gets the committed value once, then only later changes")
    func R10_producerStartedDuringSet() {
        let property = MutableProperty(0)
        let inner = Locked<[Int]>([])
        property.signal.observeValues { value in
            if value == 1 {
                property.value = 2
                property.producer.startWithValues { inner.append($0) }
            }
        }
        property.value = 1
        property.value = 3
        #expect(inner.value == [2, 3])
    }

    @Test("R10: producer and signal: current value then changes, and changes only")
    func R10_producerAndSignal() {
        let property = MutableProperty(1)
        let (producerLog, _) = property.producer.record()
        let signalLog = property.signal.record()
        property.value = 2
        property.modify { $0 += 1 }
        #expect(producerLog.values == [1, 2, 3])
        #expect(signalLog.values == [2, 3])
    }

    @Test("R10: 8 readers start the producer while a writer sets 1...N: each sees a gapless run ending at N")
    func R10_noGapNoDuplicateUnderConcurrentWriter() {
        let property = MutableProperty(0)
        let last = 20_000
        let readers = (0..<8).map { _ in Locked<[Int]>([]) }
        raceFromBarrier(threads: 9) { thread in
            if thread == 8 {
                for value in 1...last { property.value = value }
            } else {
                // Start at different points of the writer's run.
                for _ in 0..<(thread * 500) { _ = property.value }
                property.producer.startWithValues { readers[thread].append($0) }
            }
        }
        for reader in readers {
            let values = reader.value
            guard let first = values.first else {
                Issue.record("a reader got nothing")
                continue
            }
            #expect(values == Array(first...last))
        }
    }

    // MARK: R11: atomic read-modify-write

    @Test("R11: modify notifies exactly once per call, with the value after the change")
    func R11_modifyNotifiesOnce() {
        let property = MutableProperty(1)
        let log = property.signal.record()
        let result = property.modify { value -> String in
            value += 1
            value *= 10
            return "done"
        }
        #expect(result == "done")
        #expect(log.values == [20])
        #expect(property.swap(5) == 20)
        #expect(log.values == [20, 5])
    }

    @Test("R11: 8 threads x 10k modify { $0 += 1 } from a barrier reach 80k")
    func R11_concurrentModify() {
        let property = MutableProperty(0)
        let notifications = Unsynchronized(0)
        property.signal.observeValues { _ in notifications.value += 1 }
        raceFromBarrier(threads: 8) { _ in
            for _ in 0..<10_000 { property.modify { $0 += 1 } }
        }
        #expect(property.value == 80_000)
        #expect(notifications.value == 80_000)
    }

    // MARK: R12: derived properties

    @Test("R12: map, combineLatest and skipRepeats follow their sources")
    func R12_derivedFollowSources() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let sum = a.combineLatest(with: b).map { $0 + $1 }
        let parity = a.map { $0 % 2 }.skipRepeats()
        let sums = sum.producer.record().0
        let parities = parity.producer.record().0
        a.value = 3
        b.value = 20
        a.value = 4
        a.value = 6
        #expect(sum.value == 26)
        #expect(sums.values == [11, 13, 23, 24, 26])
        #expect(parities.values == [1, 0])
        #expect(a.map(\.description).value == "6")
    }

    @Test("R12: setting a source inside a derived property's observer leaves no stale value in the log")
    func R12_setSourceInsideDerivedObserver() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let sum = a.combineLatest(with: b).map { $0 + $1 }
        let log = Locked<[Int]>([])
        sum.signal.observeValues { value in
            log.append(value)
            if value == 12 { a.value = 5 }
        }
        a.value = 2
        #expect(sum.value == a.value + b.value)
        #expect(log.value == [12, 15])
        #expect(sum.value == 15)
    }

    @Test("R12: writers on both sources and readers of the sum: consistent at the end, never going back")
    func R12_derivedConsistencyUnderConcurrency() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = a.combineLatest(with: b).map { $0 + $1 }
        let log = Unsynchronized<[Int]>([])
        sum.signal.observeValues { log.value.append($0) }
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 4) { thread in
                switch thread {
                case 0: for value in 1...5_000 { a.value = value }
                case 1: for value in 1...5_000 { b.value = value }
                default: for _ in 0..<5_000 { _ = sum.value }
                }
            }
        }
        #expect(finished)
        #expect(sum.value == a.value + b.value)
        #expect(sum.value == 10_000)
        #expect(log.value.last == 10_000)
        #expect(zip(log.value, log.value.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("a property made from a producer holds its values and interrupts the run when released")
    func propertyOfProducer() {
        let server = ManualServer<Int, Int, Never>()
        let leaks = LeakCheck()
        do {
            let property = Property(initial: 0, then: server.producer(1))
            leaks.track(property, "property")
            server.last?.send(5)
            #expect(property.value == 5)
        }
        #expect(leaks.survivors == [])
        #expect(server.last?.isDisposed == true)
    }

    @Test("R8: releasing a read-only view or a derived property of a MutableProperty leaves its signal open")
    func R8_releasingViewKeepsSourceOpen() {
        let source = MutableProperty(0)
        let log = source.signal.record()
        do {
            let view = Property(source)
            let doubled = source.map { $0 * 2 }
            let pair = source.combineLatest(with: view)
            let distinct = source.skipRepeats()
            #expect(doubled.value == 0 && pair.value == (0, 0) && distinct.value == 0)
        }
        source.value = 1
        #expect(log.events == [.value(1)])
        #expect(source.producer.record().0.values == [1])
    }

    @Test("a property's producer started after the property was released sends its last value, then completes")
    func producerOfReleasedProperty() {
        let producer: SignalProducer<Int, Never> = {
            let property = MutableProperty(1)
            property.value = 2
            return property.producer
        }()
        #expect(producer.record().0.events == [.value(2), .completed])
    }

    @Test("a constant property holds its value and its signal has completed")
    func constantProperty() {
        let property = Property(value: 7)
        #expect(property.value == 7)
        #expect(property.producer.record().0.events == [.value(7), .completed])
        #expect(property.signal.record().events == [.completed])
    }

    @Test("R8: properties free themselves when released with a binding in flight, interrupting it")
    func R8_propertiesReleasedWithWorkInFlight() {
        let server = ManualServer<Int, Int, Never>()
        let source = MutableProperty(0)
        let transforms = Locked(0)
        let leaks = LeakCheck()
        do {
            let property = MutableProperty(0)
            property <~ server.producer(1)
            let derived = source.map { value -> Int in
                transforms.increment(by: 1)
                return value
            }
            let combined = derived.combineLatest(with: property).skipRepeats { $0 == $1 }
            leaks.track(property, "property")
            leaks.track(derived, "derived")
            leaks.track(combined, "combined")
            server.last?.send(1)
            #expect(combined.value == (0, 1))
        }
        #expect(leaks.survivors == [])
        #expect(server.last?.isDisposed == true)
        let before = transforms.value
        source.value = 1
        #expect(transforms.value == before)
    }
}
