import Reactive
import TestSupport
import Testing

@Suite("Time operators: lifetimes")
struct TimeOperatorLifetimeTests {
    enum TestError: Error, Equatable { case timedOut }

    enum Operator: String, CaseIterable, Sendable, CustomStringConvertible {
        case observeOn, startOn, delay, debounce, debounceDiscarding, throttle, timeout

        var description: String { rawValue }

        func apply(_ producer: SignalProducer<Int, TestError>, on scheduler: TestScheduler)
            -> SignalProducer<Int, TestError>
        {
            switch self {
            case .observeOn: producer.observe(on: scheduler)
            case .startOn: producer.start(on: scheduler)
            case .delay: producer.delay(.seconds(1), on: scheduler)
            case .debounce: producer.debounce(.seconds(1), on: scheduler)
            case .debounceDiscarding: producer.debounce(.seconds(1), on: scheduler, flushOnCompletion: false)
            case .throttle: producer.throttle(.seconds(1), on: scheduler)
            case .timeout: producer.timeout(after: .seconds(10), raising: .timedOut, on: scheduler)
            }
        }

        /// The signal form of the operator; `start(on:)` has none.
        func apply(_ signal: Signal<Int, TestError>, on scheduler: TestScheduler) -> Signal<Int, TestError>? {
            switch self {
            case .observeOn: signal.observe(on: scheduler)
            case .startOn: nil
            case .delay: signal.delay(.seconds(1), on: scheduler)
            case .debounce: signal.debounce(.seconds(1), on: scheduler)
            case .debounceDiscarding: signal.debounce(.seconds(1), on: scheduler, flushOnCompletion: false)
            case .throttle: signal.throttle(.seconds(1), on: scheduler)
            case .timeout: signal.timeout(after: .seconds(10), raising: .timedOut, on: scheduler)
            }
        }
    }

    /// A producer whose run keeps a tracked token in its lifetime and hands its input to the test.
    private static func upstream(
        _ tracker: LifetimeTracker,
        _ input: Locked<Signal<Int, TestError>.Observer?>
    ) -> SignalProducer<Int, TestError> {
        SignalProducer { observer, lifetime in
            let token = tracker.instance()
            lifetime.observeEnded { _ = token }
            input.value = observer
        }
    }

    @Test(
        "R8: a run frees its resources, its observer and its scheduled work after it completes",
        arguments: Operator.allCases)
    func R8_runFreedAfterTermination(_ operator: Operator) {
        let scheduler = TestScheduler()
        let tracker = LifetimeTracker()
        let input = Locked<Signal<Int, TestError>.Observer?>(nil)
        let recorder = EventRecorder<Int, TestError>()
        do {
            let token = tracker.instance()
            `operator`.apply(Self.upstream(tracker, input), on: scheduler).start { event in
                _ = token
                recorder.observer.send(event)
            }
        }
        scheduler.advance()
        input.value?.send(value: 1)
        scheduler.advance(by: .seconds(2))
        input.value?.sendCompleted()
        input.value = nil
        scheduler.run()
        #expect(recorder.events == [.value(1), .completed])
        #expect(tracker.created == 2)
        #expect(tracker.live == 0)
        expectNoPendingWork(scheduler)
    }

    @Test(
        "R8: a run disposed with work in flight frees everything at once and leaves no scheduled work",
        arguments: Operator.allCases)
    func R8_runFreedAfterDisposal(_ operator: Operator) {
        let scheduler = TestScheduler()
        let tracker = LifetimeTracker()
        let input = Locked<Signal<Int, TestError>.Observer?>(nil)
        let recorder = EventRecorder<Int, TestError>()
        let disposable: any Disposable = {
            let token = tracker.instance()
            return `operator`.apply(Self.upstream(tracker, input), on: scheduler).start { event in
                _ = token
                recorder.observer.send(event)
            }
        }()
        scheduler.advance()
        input.value?.send(value: 1)
        input.value?.send(value: 2)
        disposable.dispose()
        #expect(tracker.live == 0)
        expectNoPendingWork(scheduler)
        scheduler.run()
        let passesValuesAtOnce = `operator` == .timeout || `operator` == .startOn
        let passedAtOnce: [Signal<Int, TestError>.Event] = passesValuesAtOnce ? [.value(1), .value(2)] : []
        #expect(recorder.events == passedAtOnce + [.interrupted])
    }

    @Test(
        "R8: a disposed observation of a derived signal detaches it from its source",
        arguments: Operator.allCases.filter { $0 != .startOn })
    func R8_signalObservationDisposal(_ operator: Operator) throws {
        let scheduler = TestScheduler()
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, TestError>.pipe()
        var disposable: (any Disposable)? = try {
            let token = tracker.instance()
            return try #require(`operator`.apply(signal, on: scheduler)).observe { _ in _ = token }
        }()
        input.send(value: 1)
        disposable?.dispose()
        disposable = nil
        #expect(tracker.live == 0)
        expectNoPendingWork(scheduler)
        input.send(value: 2)
        expectNoPendingWork(scheduler)
    }

    @Test(
        "R8: a derived signal releases its observer and leaves no work once its source completes",
        arguments: Operator.allCases.filter { $0 != .startOn })
    func R8_signalFreedAfterTermination(_ operator: Operator) throws {
        let scheduler = TestScheduler()
        let tracker = LifetimeTracker()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = EventRecorder<Int, TestError>()
        do {
            let token = tracker.instance()
            try #require(`operator`.apply(signal, on: scheduler)).observe { event in
                _ = token
                recorder.observer.send(event)
            }
        }
        input.send(value: 1)
        scheduler.advance(by: .seconds(2))
        input.sendCompleted()
        scheduler.run()
        #expect(recorder.events == [.value(1), .completed])
        #expect(tracker.live == 0)
        expectNoPendingWork(scheduler)
    }

    @Test("R8: a timer run frees its observer and its repeating work when disposed")
    func R8_timerFreedAfterDisposal() {
        let scheduler = TestScheduler()
        let tracker = LifetimeTracker()
        let ticks = Locked(0)
        let disposable: any Disposable = {
            let token = tracker.instance()
            return SignalProducer.timer(interval: .seconds(1), on: scheduler).startWithValues { _ in
                _ = token
                ticks.increment(by: 1)
            }
        }()
        scheduler.advance(by: .seconds(3))
        disposable.dispose()
        #expect(ticks.value == 3)
        #expect(tracker.live == 0)
        expectNoPendingWork(scheduler)
    }
}
