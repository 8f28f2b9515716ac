import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Lifetimes and leaks")
struct LifetimeTests {
    // MARK: Signals (ReactiveSwift's SignalLifetimeSpec, ported)

    @Test("R8: a signal interrupts at once if its input observer is not retained")
    func R8_unretainedInputInterrupts() {
        let ended = Locked(false)
        let signal = Signal<Int, Never> { _, lifetime in
            lifetime.observeEnded { ended.value = true }
        }
        #expect(ended.value)
        #expect(signal.record().events == [.interrupted])
    }

    @Test("R8: an observed signal stays alive until completion although nobody retains it")
    func R8_aliveWhileObserved() throws {
        let recorder = EventRecorder<Int, Never>()
        let kept = Locked<(input: Signal<Int, Never>.Observer, lifetime: Lifetime)?>(nil)
        do {
            let signal = Signal<Int, Never> { input, lifetime in kept.value = (input, lifetime) }
            signal.observe(recorder.observer)
        }
        let (input, lifetime) = try #require(kept.value)
        kept.value = nil
        input.send(value: 1)
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(!lifetime.hasEnded)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .value(2), .completed])
        #expect(lifetime.hasEnded)
    }

    @Test("R8: a signal that is unreachable and unobserved tears down and frees its resources")
    func R8_unreachableUnobservedDeallocates() {
        let tracker = LifetimeTracker()
        let keptInput = Locked<Signal<Int, Never>.Observer?>(nil)
        let leaks = LeakCheck()
        do {
            let signal = Signal<Int, Never> { input, lifetime in
                keptInput.value = input
                let resource = tracker.instance()
                lifetime.observeEnded { withExtendedLifetime(resource) {} }
                leaks.track(lifetime, "signal lifetime")
            }
            #expect(tracker.live == 1)
            withExtendedLifetime(signal) {}
        }
        // The input is still held, yet nothing can observe the signal any more.
        #expect(tracker.live == 0)
        keptInput.value?.send(value: 1)
        keptInput.value = nil
        #expect(leaks.survivors == [])
    }

    @Test("R8: a signal that is unreachable but observed is not torn down")
    func R8_unreachableButObservedStays() {
        let tracker = LifetimeTracker()
        let recorder = EventRecorder<Int, Never>()
        let keptInput = Locked<Signal<Int, Never>.Observer?>(nil)
        do {
            let signal = Signal<Int, Never> { input, lifetime in
                keptInput.value = input
                let resource = tracker.instance()
                lifetime.observeEnded { withExtendedLifetime(resource) {} }
            }
            signal.observe(recorder.observer)
        }
        #expect(tracker.live == 1)
        keptInput.value?.send(value: 1)
        #expect(recorder.values == [1])
        keptInput.value = nil
        #expect(recorder.events == [.value(1), .interrupted])
        #expect(tracker.live == 0)
    }

    @Test("R8: the last observer of an unreachable signal leaving tears it down")
    func R8_lastObserverLeaving() {
        let tracker = LifetimeTracker()
        let keptInput = Locked<Signal<Int, Never>.Observer?>(nil)
        let observation: any Disposable = {
            let signal = Signal<Int, Never> { input, lifetime in
                keptInput.value = input
                let resource = tracker.instance()
                lifetime.observeEnded { withExtendedLifetime(resource) {} }
            }
            return signal.observeValues { _ in }
        }()
        #expect(tracker.live == 1)
        observation.dispose()
        #expect(tracker.live == 0)
        keptInput.value = nil
    }

    @Test("R8: observe handlers are released when the signal completes, fails or is interrupted")
    func R8_handlersReleasedOnTermination() {
        enum Failure: Error { case boom }
        for terminal in [Signal<Int, Failure>.Event.completed, .failed(.boom), .interrupted] {
            let tracker = LifetimeTracker()
            let (signal, input) = Signal<Int, Failure>.pipe()
            do {
                let captured = tracker.instance()
                signal.observe { _ in withExtendedLifetime(captured) {} }
                let observer = Signal<Int, Failure>.Observer { _ in withExtendedLifetime(captured) {} }
                signal.observe(observer)
            }
            input.send(value: 1)
            #expect(tracker.live == 1)
            input.send(terminal)
            #expect(tracker.live == 0, "handler kept after \(terminal)")
            withExtendedLifetime((signal, input)) {}
        }
    }

    @Test("R8: handlers are released on termination even while their observation disposables are kept")
    func R8_handlersReleasedWhileDisposableKept() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation: any Disposable = {
            let captured = tracker.instance()
            return signal.observe { _ in withExtendedLifetime(captured) {} }
        }()
        input.sendCompleted()
        // A kept disposable must not keep the handler (and what it captures, often its owner) alive.
        #expect(tracker.live == 0)
        #expect(observation.isDisposed)
        withExtendedLifetime((observation, signal)) {}
    }

    @Test("R8: the handler of a disposed observation is released although the signal lives on")
    func R8_handlerReleasedOnDispose() {
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, Never>.pipe()
        let observation: any Disposable = {
            let captured = tracker.instance()
            return signal.observe { _ in withExtendedLifetime(captured) {} }
        }()
        observation.dispose()
        #expect(tracker.live == 0)
        withExtendedLifetime((signal, input)) {}
    }

    @Test("R8: 1,000 create/observe/release rounds on 4 threads leave every weak reference nil")
    func R8_createObserveReleaseStress() {
        let leaks = LeakCheck()
        let tracker = LifetimeTracker()
        let received = Locked(0)
        raceFromBarrier(threads: 4) { _ in
            for round in 0..<1_000 {
                let (signal, input) = Signal<Int, Never>.pipe()
                let captured = tracker.instance()
                let observation = signal.map { $0 + 1 }.observeValues { _ in
                    withExtendedLifetime(captured) {}
                    received.increment(by: 1)
                }
                input.send(value: round)
                leaks.track(signal, "signal")
                leaks.track(input, "input")
                leaks.track(observation, "observation")
                if round % 2 == 0 { input.sendCompleted() }
            }
        }
        #expect(received.value == 4_000)
        #expect(leaks.trackedCount == 12_000)
        #expect(leaks.survivors == [])
        #expect(tracker.created == 4_000)
        #expect(tracker.live == 0)
    }

    // MARK: Producers

    @Test("R8: a producer run frees its resources and observer on completion")
    func R8_producerRunFreedOnCompletion() {
        let tracker = LifetimeTracker()
        let leaks = LeakCheck()
        do {
            let producer = SignalProducer<Int, Never> { observer, lifetime in
                let resource = tracker.instance()
                lifetime.observeEnded { withExtendedLifetime(resource) {} }
                leaks.track(lifetime, "run lifetime")
                leaks.track(observer, "run input")
                observer.send(value: 1)
                observer.sendCompleted()
            }
            let captured = tracker.instance()
            producer.startWithValues { _ in withExtendedLifetime(captured) {} }
        }
        #expect(tracker.created == 2)
        #expect(tracker.live == 0)
        #expect(leaks.survivors == [])
    }

    @Test("R8: a disposed producer run with work in flight interrupts and frees everything")
    func R8_producerRunFreedOnDisposal() {
        let tracker = LifetimeTracker()
        let server = ManualServer<Int, Int, Never>()
        let recorder = EventRecorder<Int, Never>()
        let leftovers = survivors {
            let captured = tracker.instance()
            let disposable = server.producer(1).start { event in
                withExtendedLifetime(captured) {}
                recorder.observer.send(event)
            }
            disposable.dispose()
            return [(disposable, "run disposable")]
        }
        #expect(leftovers == [])
        #expect(recorder.events == [.interrupted])
        #expect(server.last?.isDisposed == true)
        #expect(tracker.live == 0)
        // A late response from the server reaches nobody.
        server.last?.succeed(1)
        #expect(recorder.events == [.interrupted])
    }

    // MARK: Lifetime itself

    @Test("a lifetime made by make() ends once when its token is released, running every end action")
    func lifetimeEndsWithToken() {
        let log = Locked<[Int]>([])
        let lifetime: Lifetime = {
            let (lifetime, token) = Lifetime.make()
            lifetime.observeEnded { log.append(1) }
            lifetime += AnyDisposable { log.append(2) }
            lifetime += { log.append(3) }
            #expect(!lifetime.hasEnded)
            withExtendedLifetime(token) {}
            return lifetime
        }()
        #expect(lifetime.hasEnded)
        #expect(log.value == [1, 2, 3])
        lifetime.observeEnded { log.append(4) }
        #expect(log.value == [1, 2, 3, 4])
    }

    @Test("an end action can be cancelled before the lifetime ends")
    func lifetimeObservationCancel() {
        let (lifetime, token) = Lifetime.make()
        let ran = Locked(false)
        let registration = lifetime.observeEnded { ran.value = true }
        registration?.dispose()
        token.dispose()
        #expect(lifetime.hasEnded)
        #expect(!ran.value)
    }

    @Test("Lifetime.ended has ended; Lifetime.never never ends and keeps nothing")
    func lifetimeConstants() {
        let ran = Locked(false)
        Lifetime.ended.observeEnded { ran.value = true }
        #expect(ran.value)
        #expect(Lifetime.ended.hasEnded)
        let tracker = LifetimeTracker()
        do {
            let captured = tracker.instance()
            let registration = Lifetime.never.observeEnded { withExtendedLifetime(captured) {} }
            #expect(registration == nil)
        }
        #expect(tracker.live == 0)
        #expect(!Lifetime.never.hasEnded)
    }

    @Test("a lifetime made from a composite ends when the composite is disposed")
    func lifetimeOfComposite() {
        let composite = CompositeDisposable()
        let lifetime = Lifetime(composite)
        let ran = Locked(false)
        lifetime.observeEnded { ran.value = true }
        composite.dispose()
        #expect(lifetime.hasEnded)
        #expect(ran.value)
    }
}
