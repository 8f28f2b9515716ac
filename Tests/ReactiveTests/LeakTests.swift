import Dispatch
import Reactive
import TestSupport
import Testing

/// Every public type of Reactive is freed when the user releases it, even with work in flight, and its
/// work is then interrupted or disposed; its closures (observers, transforms, cleanups, scheduled work)
/// are released with it. One table, one test per row.
@Suite("Leaks: Reactive")
struct ReactiveLeakTests {
    /// What was left after a case released everything it made.
    struct Outcome: Equatable, CustomStringConvertible {
        /// Objects still alive (tracked by weak references).
        var survivors: [String] = []
        /// Closures still alive (each captures a tracked token).
        var liveClosures = 0
        /// Whether every piece of work in flight ended (interrupted, disposed, cancelled).
        var workEnded = true
        /// What the observer of the work in flight heard, in order.
        var heard: [String] = []
        /// What went wrong on the way.
        var problems: [String] = []

        var description: String {
            "survivors \(survivors), live closures \(liveClosures), work ended \(workEnded), heard \(heard), "
                + "problems \(problems)"
        }
    }

    /// Hand-driven work whose end the test can see.
    final class PendingWork: Sendable {
        let ended = Flag()
        let runs = Locked(0)

        /// A producer that never sends anything by itself; its run ends when disposed.
        func producer<Value: Sendable, Error: Swift.Error>(
            _: Value.Type = Value.self, _: Error.Type = Error.self
        ) -> SignalProducer<Value, Error> {
            SignalProducer { [ended, runs] _, lifetime in
                runs.increment(by: 1)
                lifetime.observeEnded { ended.set() }
            }
        }
    }

    /// One public type, released with work in flight.
    enum Case: String, CaseIterable, CustomStringConvertible {
        case signalPipe = "Signal.pipe() observed, input and signal released"
        case signalWithResources = "Signal with resources on its lifetime, observed, released"
        case producerRun = "SignalProducer run disposed while its work is in flight"
        case producerRunWithOperators = "SignalProducer run through map, filter, scan, disposed in flight"
        case propertyFedByProducer = "Property(initial:then: producer) released while running, then unobserved"
        case propertyFedBySignal = "Property(initial:then: signal) released while observing the signal, then unobserved"
        case mutablePropertyWithBinding = "MutableProperty released while observed and bound to a running producer"
        case derivedProperties = "map, combineLatest and skipRepeats of a live property, released, then unobserved"
        case action = "Action released while a run executes"
        case actionWithState = "Action(state:enabledIf:) released while its state property lives on"
        case compositeDisposable = "CompositeDisposable disposed then released"
        case serialDisposable = "SerialDisposable disposed then released"
        case scopedDisposable = "ScopedDisposable released without dispose()"
        case lifetime = "Lifetime whose token is released"
        case queueSchedulerWork = "QueueScheduler work disposed before it runs, scheduler released"
        case testSchedulerWork = "TestScheduler released with work pending"
        case observeOnHop = "observe(on:) with a hop pending, disposed"

        var description: String { rawValue }
    }

    static func outcome(of testCase: Case) -> Outcome {
        let leaks = LeakCheck()
        let tracker = LifetimeTracker()
        let work = PendingWork()
        let heard = Locked<[String]>([])
        /// An observer that captures a tracked token and logs what it hears.
        func observer<Value, Error>(_: Value.Type = Value.self, _: Error.Type = Error.self)
            -> Signal<
                Value, Error
            >.Observer
        {
            let token = tracker.instance()
            return Signal<Value, Error>.Observer { event in
                _ = token
                heard.append("\(event)")
            }
        }
        let problems = Locked<[String]>([])
        var workEnded: () -> Bool = { work.ended.isSet }
        do {
            switch testCase {
            case .signalPipe:
                let (signal, input) = Signal<Int, Never>.pipe()
                leaks.track(signal, "signal")
                signal.observe(observer())
                input.send(value: 1)
                workEnded = { true }

            case .signalWithResources:
                let kept = Locked<Signal<Int, Never>.Observer?>(nil)
                let signal = Signal<Int, Never> { input, lifetime in
                    kept.value = input
                    let token = tracker.instance()
                    lifetime.observeEnded {
                        _ = token
                        work.ended.set()
                    }
                }
                leaks.track(signal, "signal")
                signal.observe(observer())
                kept.value?.send(value: 1)
                kept.value = nil

            case .producerRun:
                let disposable = work.producer(Int.self, Never.self).startWithSignal { signal, interrupter in
                    leaks.track(signal, "run's signal")
                    signal.observe(observer())
                    return interrupter
                }
                disposable.dispose()

            case .producerRunWithOperators:
                let token = tracker.instance()
                let disposable = work.producer(Int.self, ProbeError.self)
                    .map { value in withExtendedLifetime(token) { value + 1 } }
                    .filter { _ in withExtendedLifetime(token) { true } }
                    .scan(0) { sum, value in withExtendedLifetime(token) { sum + value } }
                    .start(observer())
                disposable.dispose()

            case .propertyFedByProducer:
                let property = Property(initial: 0, then: work.producer(Int.self, Never.self))
                leaks.track(property, "property")
                // Observing keeps the derivation alive (R21): it is freed when the observation ends.
                property.signal.observe(observer()).dispose()

            case .propertyFedBySignal:
                let ended = Flag()
                let kept = Locked<Signal<Int, Never>.Observer?>(nil)
                let upstream = Signal<Int, Never> { input, lifetime in
                    kept.value = input
                    lifetime.observeEnded { ended.set() }
                }
                let property = Property(initial: 0, then: upstream)
                leaks.track(property, "property")
                leaks.track(upstream, "upstream signal")
                let observation = property.signal.observe(observer())
                defer { observation.dispose() }
                kept.value?.send(value: 1)
                workEnded = { ended.isSet && kept.value != nil }

            case .mutablePropertyWithBinding:
                let property = MutableProperty(0)
                leaks.track(property, "mutable property")
                leaks.track(property.lifetime, "its lifetime")
                property.signal.observe(observer())
                let token = tracker.instance()
                property.producer.startWithValues { _ in _ = token }
                property <~ work.producer(Int.self, Never.self)
                property.value = 1

            case .derivedProperties:
                let source = MutableProperty(1)
                let other = MutableProperty(10)
                let token = tracker.instance()
                let mapped = source.map { value in withExtendedLifetime(token) { value * 2 } }
                let combined = Property(source).combineLatest(with: other)
                let distinct = mapped.skipRepeats()
                leaks.track(mapped, "map")
                leaks.track(combined, "combineLatest")
                leaks.track(distinct, "skipRepeats")
                let observations = CompositeDisposable()
                observations += mapped.signal.observe(observer())
                observations += combined.signal.map { $0 + $1 }.observe(observer())
                observations += distinct.signal.observe(observer())
                defer { observations.dispose() }
                source.value = 2
                // The sources live on (the test keeps them); setting them afterwards reaches nobody.
                workEnded = {
                    source.value = 3
                    other.value = 20
                    return true
                }

            case .action:
                let token = tracker.instance()
                let action = Action<Int, Int, ProbeError> { _ in
                    withExtendedLifetime(token) { work.producer() }
                }
                leaks.track(action, "action")
                leaks.track(action.isExecuting, "isExecuting")
                leaks.track(action.isEnabled, "isEnabled")
                action.values.observe(observer())
                action.apply(1).start(observer())

            case .actionWithState:
                let state = MutableProperty(true)
                let action = Action<Int, Int, ProbeError>(state: state, enabledIf: { $0 }) { _, _ in
                    work.producer()
                }
                leaks.track(action, "action")
                action.apply(1).start(observer())
                workEnded = {
                    state.value = false
                    return work.ended.isSet
                }

            case .compositeDisposable:
                let composite = CompositeDisposable()
                leaks.track(composite, "composite")
                let ran = Locked(0)
                for _ in 0..<3 {
                    let token = tracker.instance()
                    composite += {
                        _ = token
                        ran.increment(by: 1)
                    }
                }
                composite.dispose()
                workEnded = { ran.value == 3 }
                if tracker.live != 0 { problems.append("a disposed composite keeps its members") }

            case .serialDisposable:
                let serial = SerialDisposable(AnyDisposable { [token = tracker.instance()] in _ = token })
                leaks.track(serial, "serial")
                serial.dispose()
                let disposed = serial.isDisposed
                workEnded = { disposed }
                if tracker.live != 0 { problems.append("a disposed serial disposable keeps its inner one") }

            case .scopedDisposable:
                let token = tracker.instance()
                let scoped = ScopedDisposable(AnyDisposable { withExtendedLifetime(token) { work.ended.set() } })
                leaks.track(scoped, "scoped")
                leaks.track(scoped.inner, "inner")

            case .lifetime:
                let (lifetime, token) = Lifetime.make()
                leaks.track(lifetime, "lifetime")
                leaks.track(token, "token")
                let closureToken = tracker.instance()
                lifetime.observeEnded {
                    _ = closureToken
                    work.ended.set()
                }

            case .queueSchedulerWork:
                let scheduler = QueueScheduler(label: "leaks.queue")
                leaks.track(scheduler, "scheduler")
                let ran = Flag()
                let first = scheduler.schedule(after: .seconds(3_600)) { [token = tracker.instance()] in
                    _ = token
                    ran.set()
                }
                let second = scheduler.schedule(after: .seconds(3_600), interval: .seconds(3_600), leeway: .zero) {
                    [token = tracker.instance()] in
                    _ = token
                    ran.set()
                }
                first.dispose()
                second.dispose()
                if tracker.live != 0 { problems.append("disposed scheduled work keeps its closure") }
                workEnded = { first.isDisposed && second.isDisposed && !ran.isSet }

            case .testSchedulerWork:
                let scheduler = TestScheduler()
                leaks.track(scheduler, "scheduler")
                let ran = Flag()
                for delay in [0, 5] {
                    let token = tracker.instance()
                    scheduler.schedule(after: .seconds(delay)) {
                        _ = token; ran.set()
                    }
                }
                let token = tracker.instance()
                scheduler.schedule(after: .seconds(1), interval: .seconds(1), leeway: .zero) {
                    _ = token; ran.set()
                }
                workEnded = { !ran.isSet }

            case .observeOnHop:
                let scheduler = TestScheduler()
                let (signal, input) = Signal<Int, Never>.pipe()
                let hopped = signal.observe(on: scheduler)
                leaks.track(hopped, "derived signal")
                let disposable = hopped.observe(observer())
                input.send(value: 1)
                disposable.dispose()
                scheduler.run()
                if scheduler.pendingCount != 0 { problems.append("work left on the scheduler") }
                workEnded = { true }
            }
        }
        return Outcome(
            survivors: leaks.survivors, liveClosures: tracker.live, workEnded: workEnded(),
            heard: heard.value, problems: problems.value)
    }

    /// What each case's in-flight observer must hear.
    static func expectedHeard(_ testCase: Case) -> [String] {
        switch testCase {
        case .signalPipe, .signalWithResources: ["value(1)", "interrupted"]
        case .producerRun, .producerRunWithOperators, .actionWithState: ["interrupted"]
        case .propertyFedByProducer: []
        case .propertyFedBySignal: ["value(1)"]
        case .mutablePropertyWithBinding: ["value(1)", "completed"]
        case .derivedProperties: ["value(4)", "value(4)", "value(12)"]
        case .action: ["interrupted", "interrupted"]
        case .compositeDisposable, .serialDisposable, .scopedDisposable, .lifetime, .queueSchedulerWork,
            .testSchedulerWork, .observeOnHop:
            []
        }
    }

    @Test(
        "R8: every public type released with work in flight is freed, its closures released, its work ended",
        arguments: Case.allCases)
    func R8_releasedWithWorkInFlight(testCase: Case) {
        let outcome = Self.outcome(of: testCase)
        #expect(outcome == Outcome(heard: Self.expectedHeard(testCase)))
    }

    @Test("R8: 1,000 rounds of the cases on 4 threads at once leave nothing alive")
    func R8_concurrentReleases() {
        let failures = Locked<[String]>([])
        raceFromBarrier(threads: 4) { thread in
            for round in 0..<250 {
                let testCase = Case.allCases[(round + thread) % Case.allCases.count]
                let outcome = Self.outcome(of: testCase)
                if outcome != Outcome(heard: Self.expectedHeard(testCase)) {
                    failures.append("\(testCase): \(outcome)")
                }
            }
        }
        #expect(failures.value == [])
    }
}
