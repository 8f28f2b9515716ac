import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("No internal lock is held across a callout")
struct CalloutLockTests {
    @Test("R16: while an observer of S blocks, another thread uses S, its property and an unrelated signal")
    func R16_blockedObserverBlocksNobody() {
        // S is the change signal of `property`; thread A's delivery of a change blocks on `release`.
        let property = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blockingLog = Locked<[Int]>([])
        property.signal.observeValues { value in
            blockingLog.append(value)
            if value == 1 {
                entered.signal()
                release.wait()
            }
        }
        let other = EventRecorder<Int, Never>()
        let otherObservation = property.signal.observe(other.observer)
        let aDone = DispatchSemaphore(value: 0)
        Thread {
            property.value = 1
            aDone.signal()
        }.start()
        entered.wait()

        let (unrelated, unrelatedInput) = Signal<Int, Never>.pipe()
        let readsInUnrelated = Locked<[Int]>([])
        unrelated.observeValues { _ in readsInUnrelated.append(property.value) }
        let lateObserver = EventRecorder<Int, Never>()
        let readByB = Locked<Int?>(nil)
        let bFinished = finishesWithin(seconds: 10) {
            readByB.value = property.value
            property.signal.observe(lateObserver.observer)
            otherObservation.dispose()
            unrelatedInput.send(value: 1)
            // A cross-thread send during A's delivery queues and returns (decision 1): no waiting on A.
            property.value = 2
        }
        release.signal()
        #expect(bFinished, "thread B blocked: an internal lock is held across thread A's callout")
        #expect(aDone.wait(timeout: .now() + 30) == .success)
        #expect(readByB.value == 1)
        #expect(readsInUnrelated.value == [1])
        // A's thread drained B's change after its own callout returned.
        #expect(blockingLog.value == [1, 2])
        // Disposed by B while 1 was being delivered, before its turn: disposal wins (decision 2).
        #expect(other.values == [])
        #expect(lateObserver.values == [2])
        #expect(property.value == 2)
    }

    @Test("R16: while an observer blocks, another thread starts a property's producer and applies an action")
    func R16_blockedObserverDoesNotBlockProducersOrActions() {
        let property = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        property.signal.observeValues { value in
            if value == 1 {
                entered.signal()
                release.wait()
            }
        }
        Thread { property.value = 1 }.start()
        entered.wait()
        let action = Action<Int, Int, Never> { input in SignalProducer(value: input + property.value) }
        let started = Locked<[Int]>([])
        let applied = Locked<[Signal<Int, ActionError<Never>>.Event]>([])
        let bFinished = finishesWithin(seconds: 10) {
            property.producer.startWithValues { started.append($0) }
            action.apply(10).start { applied.append($0) }
            property.modify { $0 += 1 }
        }
        release.signal()
        #expect(bFinished, "thread B blocked behind thread A's callout")
        #expect(applied.value == [.value(11), .completed])
        #expect(eventually(seconds: 30) { started.value == [1, 2] })
    }

    @Test("R16: cross-observers S to T and T to S sent from two threads 10k times finish (watchdog)")
    func R16_crossObserversFromTwoThreads() {
        struct Hop: Sendable {
            let origin: Int
            let index: Int
            let echo: Bool
        }
        let (s, sInput) = Signal<Hop, Never>.pipe()
        let (t, tInput) = Signal<Hop, Never>.pipe()
        let sLog = Unsynchronized<[Hop]>([])
        let tLog = Unsynchronized<[Hop]>([])
        s.observeValues { hop in
            sLog.value.append(hop)
            if !hop.echo { tInput.send(value: Hop(origin: hop.origin, index: hop.index, echo: true)) }
        }
        t.observeValues { hop in
            tLog.value.append(hop)
            if !hop.echo { sInput.send(value: Hop(origin: hop.origin, index: hop.index, echo: true)) }
        }
        let count = 10_000
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 2) { thread in
                for index in 0..<count {
                    let hop = Hop(origin: thread, index: index, echo: false)
                    if thread == 0 { sInput.send(value: hop) } else { tInput.send(value: hop) }
                }
            }
        }
        #expect(finished, "deadlock between two signals whose observers send into each other")
        #expect(sLog.value.count == 2 * count)
        #expect(tLog.value.count == 2 * count)
        #expect(sLog.value.filter { !$0.echo }.map(\.index) == Array(0..<count))
        #expect(tLog.value.filter { !$0.echo }.map(\.index) == Array(0..<count))
        #expect(sLog.value.filter(\.echo).map(\.index) == Array(0..<count))
        #expect(tLog.value.filter(\.echo).map(\.index) == Array(0..<count))
    }
}
