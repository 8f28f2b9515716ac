import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// `map`, `filter`, `compactMap`, `mapError` and `promoteError` deliver inline, within the delivery of the
/// signal they derive from, with no queue of their own. These tests pin the guarantees that must survive
/// that: FIFO and depth 1 for sends into the upstream, one transform call per value, disposal wins,
/// attachment order, the terminal event for late attachers, and the end of the feed.
@Suite("Derived signals (inline delivery)")
struct DerivedSignalTests {
    @Test("R1: observers of a derived chain that send into the upstream see FIFO order, each callout at depth 1")
    func R1_reentrantSendsThroughAChain() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let depth = Locked(0)
        let maxDepth = Locked(0)
        let first = Locked<[Int]>([])
        let second = Locked<[Int]>([])
        let chain = signal.map { $0 * 10 }.filter { $0 > 0 }.map { $0 + 1 }
        chain.observeValues { value in
            depth.increment(by: 1)
            maxDepth.withLock { $0 = max($0, depth.value) }
            first.append(value)
            // 1 -> 11 sends 2 and 3; both are queued behind the current delivery.
            if value == 11 {
                input.send(value: 2)
                input.send(value: 3)
            }
            depth.increment(by: -1)
        }
        chain.observeValues { value in
            depth.increment(by: 1)
            maxDepth.withLock { $0 = max($0, depth.value) }
            second.append(value)
            if value == 21 { input.send(value: 4) }
            depth.increment(by: -1)
        }
        input.send(value: 1)
        #expect(first.value == [11, 21, 31, 41])
        #expect(second.value == [11, 21, 31, 41])
        #expect(maxDepth.value == 1)
    }

    @Test("each transform of a chain runs once per value, however many observers each link has")
    func transformRunsOncePerValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapCalls = Locked(0)
        let filterCalls = Locked(0)
        let mapped = signal.map { value -> Int in
            mapCalls.increment(by: 1)
            return value * 2
        }
        let filtered = mapped.filter { value in
            filterCalls.increment(by: 1)
            return value > 2
        }
        let recorders = (0..<3).map { _ in mapped.record() } + (0..<3).map { _ in filtered.record() }
        for value in 1...3 { input.send(value: value) }
        input.sendCompleted()
        #expect(mapCalls.value == 3)
        #expect(filterCalls.value == 3)
        for recorder in recorders.prefix(3) {
            #expect(recorder.events == [.value(2), .value(4), .value(6), .completed])
        }
        for recorder in recorders.suffix(3) { #expect(recorder.events == [.value(4), .value(6), .completed]) }
    }

    @Test("R5: an observer of a derived signal disposed by an earlier observer during a delivery misses it")
    func R5_disposalWinsOnADerivedSignal() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let victim = EventRecorder<Int, Never>()
        let otherVictim = EventRecorder<Int, Never>()
        let observations = Locked<[any Disposable]>([])
        // An observer of the upstream, before the derived signal's feed, disposes an observer of the
        // derived signal; one of the derived signal disposes another one after it.
        signal.observeValues { value in
            if value == 1 { observations.value[0].dispose() }
        }
        let mapped = signal.map { $0 + 100 }
        mapped.observeValues { value in
            if value == 102 { observations.value[1].dispose() }
        }
        observations.append(mapped.observe(victim.observer))
        observations.append(mapped.observe(otherVictim.observer))
        let survivor = mapped.record()
        input.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        #expect(victim.events == [])
        #expect(otherVictim.events == [.value(101)])
        #expect(survivor.values == [101, 102, 103])
    }

    @Test("R7: an observer attached to a derived signal during a delivery gets only later events")
    func R7_attachmentOrderOnADerivedSignal() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let attached = Locked<[EventRecorder<Int, Never>]>([])
        let mappedSlot = Locked<Signal<Int, Never>?>(nil)
        // From an upstream observer that runs before the feed (the derived signal then delivers the
        // current value after the attachment, and must skip the new observer), and from an observer of
        // the derived signal.
        signal.observeValues { value in
            if value == 1, let mapped = mappedSlot.value { attached.append(mapped.record()) }
        }
        let mapped = signal.map { $0 * 2 }
        mappedSlot.value = mapped
        mapped.observeValues { value in
            if value == 4 { attached.append(mapped.record()) }
        }
        for value in 1...3 { input.send(value: value) }
        input.sendCompleted()
        #expect(attached.value.map(\.events) == [[.value(4), .value(6), .completed], [.value(6), .completed]])
    }

    @Test("R4: an observer attached to a derived signal while its terminal event is delivered gets it too")
    func R4_lateAttacherGetsTheTerminalEvent() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let mapped = signal.mapError { _ in ProbeError.other }
        let late = Locked<EventRecorder<Int, ProbeError>?>(nil)
        let first = EventRecorder<Int, ProbeError>()
        mapped.observe { event in
            first.observer.send(event)
            if event.isTerminating { late.value = mapped.record() }
        }
        input.send(error: .boom)
        #expect(first.events == [.failed(.other)])
        #expect(late.value?.events == [.failed(.other)])
        // And one attached after the end gets it at once.
        #expect(mapped.record().events == [.failed(.other)])
    }

    @Test("R4: an observer attached to a derived signal while the upstream's terminal is on its way gets it")
    func R4_attachedBeforeTheTerminalReachesTheFeed() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let mappedSlot = Locked<Signal<Int, ProbeError>?>(nil)
        let attached = Locked<[EventRecorder<Int, ProbeError>]>([])
        // This upstream observer runs before the derived signal's feed: it attaches to the derived signal
        // after the upstream accepted the event, before the derived signal delivers it.
        signal.observe { event in
            if let mapped = mappedSlot.value { attached.append(mapped.record()) }
        }
        mappedSlot.value = signal.map { $0 * 2 }
        input.send(value: 1)
        input.send(error: .boom)
        // Attached during 1: not that value (attachment order), but the terminal event of the signal.
        #expect(attached.value.map(\.events) == [[.failed(.boom)], [.failed(.boom)]])
    }

    @Test("R4: a signal derived from a terminated signal is terminated: its observers get the terminal at once")
    func R4_derivedFromATerminatedSignal() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        input.send(error: .boom)
        let filtered = signal.filter { _ in true }
        #expect(filtered.record().events == [.failed(.boom)])
        let (never, neverInput) = Signal<Int, Never>.pipe()
        neverInput.sendCompleted()
        #expect(never.promoteError(ProbeError.self).record().events == [.completed])
    }

    @Test("R8: the handler of a derived signal's observer disposed during its callout is released after it")
    func R8_parkedHandlerOfADerivedSignal() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.compactMap { $0 > 0 ? $0 : nil }
        let own = Locked<(any Disposable)?>(nil)
        let liveInside = Locked<[Int]>([])
        do {
            let token = tracker.instance()
            own.value = mapped.observeValues { _ in
                withExtendedLifetime(token) {}
                own.value?.dispose()
                liveInside.append(tracker.live)
            }
        }
        let after = mapped.record()
        input.send(value: 0)
        input.send(value: 1)
        #expect(liveInside.value == [1])
        #expect(tracker.live == 0)
        input.send(value: 2)
        #expect(after.values == [1, 2])
        withExtendedLifetime(own) {}
    }

    @Test("R8: a derived signal's last observer leaving ends its feed: the transform no longer runs")
    func R8_lastObserverLeavingEndsTheFeed() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let calls = Locked(0)
        let observation: any Disposable
        do {
            let token = tracker.instance()
            observation = signal.map { value -> Int in
                withExtendedLifetime(token) {}
                calls.increment(by: 1)
                return value
            }.observeValues { _ in }
        }
        input.send(value: 1)
        observation.dispose()
        input.send(value: 2)
        #expect(calls.value == 1)
        // The transform (and what it captures) went with the feed.
        #expect(tracker.live == 0)
    }

    @Test("R7: 4 threads observe and dispose a derived chain while 2 threads send: order kept, all released")
    func R7_observeDisposeStressOnAChain() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let chain = signal.map { $0 }.filter { _ in true }
        let inFlight = Unsynchronized(0)
        let overlaps = Unsynchronized(0)
        let perSender = 10_000
        let permanent = Unsynchronized<[Int]>([])
        chain.observeValues { value in
            inFlight.value += 1
            if inFlight.value != 1 { overlaps.value += 1 }
            permanent.value.append(value)
            inFlight.value -= 1
        }
        let lateCounts = Locked<[Locked<Int>]>([])
        let disorder = Locked(0)
        let finished = finishesWithin(seconds: 120) {
            raceFromBarrier(threads: 6) { thread in
                if thread < 2 {
                    for index in 0..<perSender { input.send(value: thread * perSender + index) }
                } else {
                    for _ in 0..<1_000 {
                        let returned = Flag()
                        let late = Locked(0)
                        lateCounts.append(late)
                        let token = tracker.instance()
                        let last = Unsynchronized([-1, -1])
                        let observation = chain.map { $0 }.observeValues { value in
                            withExtendedLifetime(token) {}
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
        #expect(finished, "deadlock: observers, disposers and senders did not finish")
        #expect(overlaps.value == 0)
        #expect(disorder.value == 0)
        #expect(lateCounts.value.count == 4_000)
        #expect(lateCounts.value.allSatisfy { $0.value <= 1 })
        #expect(tracker.created == 4_000)
        #expect(tracker.live == 0)
        for sender in 0..<2 {
            let own = permanent.value.filter { $0 / perSender == sender }
            #expect(own == Array(sender * perSender..<(sender + 1) * perSender))
        }
    }

    @Test("R4: 1,000 signals, each mapped on one thread while another completes it: one completed each")
    func R4_deriveRacingTheTerminalEvent() {
        let tracker = LifetimeTracker()
        let completions = Locked<[Int]>([])
        let pairs = (0..<1_000).map { _ in Signal<Int, Never>.pipe() }
        let finished = finishesWithin(seconds: 120) {
            raceFromBarrier(threads: 2) { thread in
                for (index, pair) in pairs.enumerated() {
                    if thread == 0 {
                        let token = tracker.instance()
                        pair.output.map { value -> Int in
                            withExtendedLifetime(token) {}
                            return value
                        }.observeCompleted { completions.append(index) }
                    } else {
                        pair.input.sendCompleted()
                    }
                }
            }
        }
        #expect(finished)
        #expect(completions.value.sorted() == Array(0..<1_000))
        #expect(tracker.live == 0)
    }
}
