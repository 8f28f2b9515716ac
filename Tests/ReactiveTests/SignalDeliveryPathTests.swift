import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// The delivery path walks the live observer list with a cursor and calls handlers unretained; a handler
/// detached while a delivery runs is parked and released by the drainer. These tests pin what that must
/// keep: removals before the cursor skip nobody, removals after it win, and parked handlers are released.
@Suite("Signal delivery path")
struct SignalDeliveryPathTests {
    @Test("R5: an observer that disposes earlier observers during a delivery makes no later observer miss it")
    func R5_removalBeforeTheCursor() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let first = EventRecorder<Int, Never>()
        let second = EventRecorder<Int, Never>()
        let fourth = EventRecorder<Int, Never>()
        let fifth = EventRecorder<Int, Never>()
        let disposables = Locked<[any Disposable]>([])
        disposables.append(signal.observe(first.observer))
        disposables.append(signal.observe(second.observer))
        signal.observeValues { value in
            // Removes the two entries before this one: the cursor must move back by two.
            if value == 1 { disposables.value.forEach { $0.dispose() } }
        }
        signal.observe(fourth.observer)
        signal.observe(fifth.observer)
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(first.events == [.value(1)])
        #expect(second.events == [.value(1)])
        #expect(fourth.events == [.value(1), .value(2), .completed])
        #expect(fifth.events == [.value(1), .value(2), .completed])
    }

    @Test("R5: an observer that disposes itself and the next one: the next misses the event, the rest get it")
    func R5_removalAtAndAfterTheCursor() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let own = Locked<(any Disposable)?>(nil)
        let next = EventRecorder<Int, Never>()
        let nextObservation = Locked<(any Disposable)?>(nil)
        let last = EventRecorder<Int, Never>()
        let log = Locked<[Int]>([])
        own.value = signal.observeValues { value in
            log.append(value)
            own.value?.dispose()
            nextObservation.value?.dispose()
        }
        nextObservation.value = signal.observe(next.observer)
        signal.observe(last.observer)
        input.send(value: 1)
        input.send(value: 2)
        #expect(log.value == [1])
        #expect(next.events == [])
        #expect(last.events == [.value(1), .value(2)])
    }

    @Test("R8: a handler disposed during its own callout is released once the delivery has moved past it")
    func R8_selfDisposedHandlerIsReleased() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let own = Locked<(any Disposable)?>(nil)
        let liveInside = Locked<[Int]>([])
        do {
            let token = tracker.instance()
            own.value = signal.observeValues { _ in
                withExtendedLifetime(token) {}
                own.value?.dispose()
                // The callout is still running this handler: it must still be alive.
                liveInside.append(tracker.live)
            }
        }
        let after = signal.record()
        input.send(value: 1)
        #expect(liveInside.value == [1])
        #expect(tracker.live == 0)
        #expect(after.values == [1])
        input.send(value: 2)
        #expect(liveInside.value == [1])
        #expect(after.values == [1, 2])
        withExtendedLifetime(own) {}
    }

    @Test("R8: handlers disposed from another thread during a blocked callout are released when it returns")
    func R8_crossThreadDisposalDuringCallout() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking: any Disposable
        let later: any Disposable
        let laterLog = Locked<[Int]>([])
        do {
            let blockingToken = tracker.instance()
            blocking = signal.observeValues { value in
                withExtendedLifetime(blockingToken) {}
                if value == 1 {
                    entered.signal()
                    release.wait()
                }
            }
            let laterToken = tracker.instance()
            later = signal.observeValues { value in
                withExtendedLifetime(laterToken) {}
                laterLog.append(value)
            }
        }
        let sent = DispatchSemaphore(value: 0)
        let sender = Thread {
            input.send(value: 1)
            sent.signal()
        }
        sender.start()
        #expect(entered.wait(timeout: .now() + 30) == .success)
        // Both disposals return at once although a callout of the first is still running.
        let disposed = finishesWithin(seconds: 30) {
            blocking.dispose()
            later.dispose()
        }
        #expect(disposed, "dispose() waited for a callout")
        #expect(blocking.isDisposed && later.isDisposed)
        release.signal()
        #expect(sent.wait(timeout: .now() + 30) == .success)
        // Both handlers were released by the delivery; the later observer lost its turn (disposal wins).
        #expect(tracker.live == 0)
        #expect(laterLog.value == [])
        input.send(value: 2)
        #expect(laterLog.value == [])
    }

    @Test("R8: the last observer of an unreachable signal leaving during a delivery tears it down at once")
    func R8_teardownDuringDelivery() {
        let ended = Flag()
        let endedInside = Locked<[Bool]>([])
        let log = Locked<[Int]>([])
        let own = Locked<(any Disposable)?>(nil)
        let captured = Locked<Signal<Int, Never>.Observer?>(nil)
        do {
            let signal = Signal<Int, Never> { input, lifetime in
                captured.value = input
                lifetime.observeEnded { ended.set() }
            }
            own.value = signal.observeValues { value in
                log.append(value)
                // Queued behind this delivery, then the last observer leaves the unreachable signal.
                captured.value?.send(value: value + 1)
                captured.value?.send(value: value + 2)
                own.value?.dispose()
                endedInside.append(ended.isSet)
            }
        }
        let input = captured.value!
        input.send(value: 1)
        #expect(log.value == [1])
        #expect(endedInside.value == [true])
        input.send(value: 10)
        #expect(log.value == [1])
        captured.value = nil
        withExtendedLifetime(input) {}
    }

    @Test("R7: 4 threads observe and dispose while 2 threads send: every handler is released, no overlap")
    func R7_observeDisposeStressReleasesEveryHandler() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let inFlight = Unsynchronized(0)
        let overlaps = Unsynchronized(0)
        signal.observeValues { _ in
            inFlight.value += 1
            if inFlight.value != 1 { overlaps.value += 1 }
            inFlight.value -= 1
        }
        let lateCounts = Locked<[Locked<Int>]>([])
        let finished = finishesWithin(seconds: 120) {
            raceFromBarrier(threads: 6) { thread in
                if thread < 2 {
                    for value in 0..<20_000 { input.send(value: value) }
                } else {
                    for round in 0..<1_000 {
                        let returned = Flag()
                        let late = Locked(0)
                        lateCounts.append(late)
                        let token = tracker.instance()
                        let observation = signal.observeValues { _ in
                            withExtendedLifetime(token) {}
                            if returned.isSet { late.increment(by: 1) }
                        }
                        if round % 3 == 0 { input.send(value: -round) }
                        observation.dispose()
                        returned.set()
                    }
                }
            }
        }
        #expect(finished, "deadlock: observers, disposers and senders did not finish")
        #expect(overlaps.value == 0)
        // At most the one callout a drainer committed to before the disposal starts after it returned.
        #expect(lateCounts.value.count == 4_000)
        #expect(lateCounts.value.allSatisfy { $0.value <= 1 })
        // Handlers parked by disposals during deliveries were released by those deliveries.
        #expect(tracker.created == 4_000)
        #expect(tracker.live == 0)
    }
}
