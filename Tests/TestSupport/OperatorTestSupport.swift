import Reactive

/// The error of the hand-driven upstreams of operator tests.
public enum ProbeError: Error, Equatable, Sendable {
    case boom
    case other
}

/// How a leak check ends the operator's output: by a terminal event of its upstreams, or by disposal.
public enum Ending: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Every upstream completes.
    case completed
    /// The first upstream fails.
    case failed
    /// The first upstream is interrupted.
    case interrupted
    /// The observation of the output (or the run of the producer) is disposed.
    case disposed

    public var description: String { rawValue }
}

/// A hand-driven upstream signal whose end (termination or tear-down) the test can see.
public final class SignalProbe: Sendable {
    public let input: Signal<Int, ProbeError>.Observer
    private let ended: Locked<Bool>

    private init(input: Signal<Int, ProbeError>.Observer, ended: Locked<Bool>) {
        self.input = input
        self.ended = ended
    }

    /// Whether the upstream signal's lifetime has ended: it terminated, or nobody observes or holds it.
    public var hasEnded: Bool { ended.value }

    /// A fresh upstream signal and its probe (which holds its input).
    public static func make() -> (Signal<Int, ProbeError>, SignalProbe) {
        let ended = Locked(false)
        var captured: Signal<Int, ProbeError>.Observer?
        let signal = Signal<Int, ProbeError> { input, lifetime in
            captured = input
            lifetime.observeEnded { ended.value = true }
        }
        return (signal, SignalProbe(input: captured!, ended: ended))
    }
}

/// A hand-driven upstream producer: every run is recorded and driven by the test.
public final class ProducerProbe: Sendable {
    private let log = Locked<[Run]>([])

    public init() {}

    /// Every run started so far.
    public var runs: [Run] { log.value }

    /// Whether every run started so far has ended.
    public var allRunsEnded: Bool { log.value.allSatisfy(\.hasEnded) }

    /// The producer whose runs the probe records.
    public var producer: SignalProducer<Int, ProbeError> {
        SignalProducer { [log] observer, lifetime in
            let run = Run(observer: observer)
            lifetime.observeEnded { run.markEnded() }
            log.append(run)
        }
    }

    /// One run of the probe's producer.
    public final class Run: Sendable {
        public let observer: Signal<Int, ProbeError>.Observer
        private let ended = Locked(false)

        init(observer: Signal<Int, ProbeError>.Observer) {
            self.observer = observer
        }

        public var hasEnded: Bool { ended.value }

        fileprivate func markEnded() { ended.value = true }
    }
}

/// What an operator left alive once its output ended.
public struct LeakReport: Equatable, Sendable, CustomStringConvertible {
    /// Tracked objects captured by the operator's closures or the observer that are still alive.
    public var liveTokens: Int
    /// Whether the output signal object was freed (always true for producers).
    public var outputFreed: Bool
    /// Whether every upstream signal or run has ended.
    public var upstreamsEnded: Bool

    public init(liveTokens: Int, outputFreed: Bool, upstreamsEnded: Bool) {
        self.liveTokens = liveTokens
        self.outputFreed = outputFreed
        self.upstreamsEnded = upstreamsEnded
    }

    /// Nothing left alive.
    public static let clean = LeakReport(liveTokens: 0, outputFreed: true, upstreamsEnded: true)

    public var description: String {
        "live tokens \(liveTokens), output freed \(outputFreed), upstreams ended \(upstreamsEnded)"
    }
}

/// Applies an operator to two hand-driven upstream signals inside a scope, observes the output with an
/// observer that captures a tracked token, sends a value into each upstream, ends by `ending`, and reports
/// what was left alive after the scope.
///
/// `apply` gets both upstreams (single-input operators ignore the second) and a tracked token that the
/// operator's closures should capture.
public func leakReport<Output: Sendable, OutputError: Error>(
    _ ending: Ending,
    _ apply: (Signal<Int, ProbeError>, Signal<Int, ProbeError>, LifetimeTracker.Tracked) -> Signal<Output, OutputError>
) -> LeakReport {
    let tracker = LifetimeTracker()
    weak var weakOutput: Signal<Output, OutputError>?
    let probes: (SignalProbe, SignalProbe)
    do {
        let (first, firstProbe) = SignalProbe.make()
        let (second, secondProbe) = SignalProbe.make()
        probes = (firstProbe, secondProbe)
        let output = apply(first, second, tracker.instance())
        weakOutput = output
        let observerToken = tracker.instance()
        let observation = output.observe { _ in _ = observerToken }
        firstProbe.input.send(value: 1)
        secondProbe.input.send(value: 2)
        switch ending {
        case .completed:
            firstProbe.input.sendCompleted()
            secondProbe.input.sendCompleted()
        case .failed:
            firstProbe.input.send(error: .boom)
        case .interrupted:
            firstProbe.input.sendInterrupted()
        case .disposed:
            observation.dispose()
        }
    }
    return LeakReport(
        liveTokens: tracker.live,
        outputFreed: weakOutput == nil,
        upstreamsEnded: probes.0.hasEnded && probes.1.hasEnded
    )
}

/// The producer form of `leakReport(_:_:)`: starts the operator's producer built on two probe producers,
/// sends a value into each upstream run, ends by `ending` (`disposed` disposes the start), and reports
/// whether tracked tokens survived and whether every upstream run ended.
public func producerLeakReport<Output: Sendable, OutputError: Error>(
    _ ending: Ending,
    _ apply: (
        SignalProducer<Int, ProbeError>, SignalProducer<Int, ProbeError>, LifetimeTracker.Tracked
    ) -> SignalProducer<Output, OutputError>
) -> LeakReport {
    let tracker = LifetimeTracker()
    let first = ProducerProbe()
    let second = ProducerProbe()
    do {
        let producer = apply(first.producer, second.producer, tracker.instance())
        let observerToken = tracker.instance()
        let disposable = producer.start { _ in _ = observerToken }
        for run in first.runs { run.observer.send(value: 1) }
        for run in second.runs { run.observer.send(value: 2) }
        switch ending {
        case .completed:
            // Completing the first upstream may start the second (concat, then), so list its runs after.
            for run in first.runs { run.observer.sendCompleted() }
            for run in second.runs { run.observer.sendCompleted() }
        case .failed:
            first.runs.first?.observer.send(error: .boom)
        case .interrupted:
            first.runs.first?.observer.sendInterrupted()
        case .disposed:
            disposable.dispose()
        }
    }
    return LeakReport(
        liveTokens: tracker.live,
        outputFreed: true,
        upstreamsEnded: first.allRunsEnded && second.allRunsEnded
    )
}

/// The terminal events a hand-driven pipe can end with, for tests run once per terminal event.
public enum Terminal: String, CaseIterable, Sendable, CustomStringConvertible {
    case failed
    case completed
    case interrupted

    public var description: String { rawValue }

    /// Sends this terminal event into `input`.
    public func send<Value>(to input: Signal<Value, ProbeError>.Observer) {
        switch self {
        case .failed: input.send(error: .boom)
        case .completed: input.sendCompleted()
        case .interrupted: input.sendInterrupted()
        }
    }

    /// This terminal event as an event of any value type.
    public func event<Value>(_: Value.Type = Value.self) -> Signal<Value, ProbeError>.Event {
        switch self {
        case .failed: .failed(.boom)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}
