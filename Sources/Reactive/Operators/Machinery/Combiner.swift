/// The rule of a multi-input operator: what it keeps of each input's values, when those values make an
/// output, and when the inputs' completions complete the output.
///
/// A rule is plain state, kept and called under the lock of its `Combiner`; it never calls user code.
protocol CombiningRule<Element>: SendableMetatype {
    associatedtype Element: Sendable

    /// A rule for `count` inputs, none of which has sent anything.
    init(count: Int)

    /// Records `value` of the input at `index`; returns the values, one per input in input order, of
    /// the output it makes, if it makes one.
    mutating func receive(_ value: Element, at index: Int) -> [Element]?

    /// Whether no output can ever be made again, so the output completes right after the last one.
    var isExhausted: Bool { get }

    /// Records the completion of the input at `index`; returns whether the output completes.
    mutating func complete(at index: Int) -> Bool
}

/// `combineLatest`'s rule: the latest value of each input makes an output once every input has one; the
/// output completes when every input has completed.
struct LatestValues<Element: Sendable>: CombiningRule {
    private var latest: [Element?]
    /// How many inputs have not sent a value yet.
    private var missing: Int
    private var isCompleted: [Bool]
    /// How many inputs have not completed yet.
    private var running: Int

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
        missing = count
        isCompleted = Array(repeating: false, count: count)
        running = count
    }

    mutating func receive(_ value: Element, at index: Int) -> [Element]? {
        if latest[index] == nil { missing -= 1 }
        latest[index] = value
        guard missing == 0 else { return nil }
        return latest.map { $0! }
    }

    var isExhausted: Bool { false }

    mutating func complete(at index: Int) -> Bool {
        guard !isCompleted[index] else { return false }
        isCompleted[index] = true
        running -= 1
        return running == 0
    }
}

/// `zip`'s rule: each input's values wait in a buffer, and the oldest value of each makes an output once
/// every buffer has one; the output completes as soon as an input has completed with an empty buffer.
struct QueuedValues<Element: Sendable>: CombiningRule {
    private var pending: [FIFOQueue<Element>]
    /// How many buffers are empty.
    private var emptyCount: Int
    private var isCompleted: [Bool]

    init(count: Int) {
        pending = Array(repeating: FIFOQueue(), count: count)
        emptyCount = count
        isCompleted = Array(repeating: false, count: count)
    }

    mutating func receive(_ value: Element, at index: Int) -> [Element]? {
        if pending[index].isEmpty { emptyCount -= 1 }
        pending[index].append(value)
        guard emptyCount == 0 else { return nil }
        var values: [Element] = []
        values.reserveCapacity(pending.count)
        for slot in pending.indices {
            values.append(pending[slot].popFirst()!)
            if pending[slot].isEmpty { emptyCount += 1 }
        }
        return values
    }

    /// Whether an input has completed with nothing left to pair, so no output can ever be made.
    var isExhausted: Bool {
        pending.indices.contains { isCompleted[$0] && pending[$0].isEmpty }
    }

    mutating func complete(at index: Int) -> Bool {
        isCompleted[index] = true
        return pending[index].isEmpty
    }
}

/// The state of one multi-input operator (`combineLatest`, `zip`): its rule's state, and whether a
/// terminal event has been decided.
///
/// Every decision runs under the output signal's lock (`OperatorInput.send(deciding:)`), so the order of
/// outputs matches the order of the state changes that made them. The output fails or is interrupted as
/// soon as any input is, and completes when the rule says so (right after a value, if that value leaves
/// the rule exhausted); nothing is decided after a terminal event.
final class Combiner<Rule: CombiningRule, Output: Sendable, Error: Swift.Error>: Sendable {
    private let input: OperatorInput<Output, Error>
    /// Builds the output from one value per input (casts and tuples only, never user code).
    private let combine: @Sendable ([Rule.Element]) -> Output
    // Guarded by its lock.
    private let state: LockedState<State>

    private struct State {
        var rule: Rule
        /// Whether a terminal event has been decided; nothing is decided after it.
        var isDone = false
    }

    init(input: OperatorInput<Output, Error>, count: Int, combine: @escaping @Sendable ([Rule.Element]) -> Output) {
        self.input = input
        self.combine = combine
        state = LockedState(State(rule: Rule(count: count)))
        if count == 0 { input.send(.completed) }
    }

    /// The observer of the input at `index`, whose values `erase` turns into elements.
    func observer<Input: Sendable>(
        at index: Int,
        _ erase: @escaping @Sendable (Input) -> Rule.Element
    ) -> Signal<Input, Error>.Observer {
        Signal<Input, Error>.Observer({ [self] event in
            receive(event.map(erase), at: index)
        })
    }

    private func receive(_ event: Signal<Rule.Element, Error>.Event, at index: Int) {
        input.send { followUp in
            state.withLock { state -> Signal<Output, Error>.Event? in
                guard !state.isDone else { return nil }
                switch event {
                case .value(let value):
                    guard let values = state.rule.receive(value, at: index) else { return nil }
                    if state.rule.isExhausted {
                        state.isDone = true
                        followUp = .completed
                    }
                    return .value(combine(values))
                case .completed:
                    guard state.rule.complete(at: index) else { return nil }
                    state.isDone = true
                    return .completed
                case .failed(let error):
                    state.isDone = true
                    return .failed(error)
                case .interrupted:
                    state.isDone = true
                    return .interrupted
                }
            }
        }
    }
}

extension Signal {
    /// The output of the multi-input operator that `Rule` decides, over `a` and `b`.
    static func combining<Rule: CombiningRule<any Sendable>, B: Sendable>(
        _: Rule.Type,
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>
    ) -> Signal<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime += a.observe(combiner.observer(at: 0) { $0 })
            lifetime += b.observe(combiner.observer(at: 1) { $0 })
        }
    }

    /// The output of the multi-input operator that `Rule` decides, over `a`, `b` and `c`.
    static func combining<Rule: CombiningRule<any Sendable>, B: Sendable, C: Sendable>(
        _: Rule.Type,
        _ a: Signal<Value, Error>,
        _ b: Signal<B, Error>,
        _ c: Signal<C, Error>
    ) -> Signal<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime += a.observe(combiner.observer(at: 0) { $0 })
            lifetime += b.observe(combiner.observer(at: 1) { $0 })
            lifetime += c.observe(combiner.observer(at: 2) { $0 })
        }
    }

    /// The output of the multi-input operator that `Rule` decides, over every signal of `signals` in
    /// their order; with no inputs it completes at once.
    static func combining<Rule: CombiningRule<Value>, Signals: Sequence>(
        _: Rule.Type,
        _ signals: Signals
    ) -> Signal<[Value], Error> where Signals.Element == Signal<Value, Error> {
        let signals = Array(signals)
        return .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, [Value], Error>(input: input, count: signals.count) { $0 }
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe(combiner.observer(at: index) { $0 })
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose every run starts `a`, then `b`, into the multi-input operator that `Rule` decides.
    static func combining<Rule: CombiningRule<any Sendable>, B: Sendable>(
        _: Rule.Type,
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>
    ) -> SignalProducer<(Value, B), Error> {
        .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, (Value, B), Error>(input: input, count: 2) { values in
                (values[0] as! Value, values[1] as! B)
            }
            lifetime.start(a, combiner.observer(at: 0) { $0 })
            lifetime.start(b, combiner.observer(at: 1) { $0 })
        }
    }

    /// A producer whose every run starts `a`, `b` and `c` in order into the multi-input operator that
    /// `Rule` decides.
    static func combining<Rule: CombiningRule<any Sendable>, B: Sendable, C: Sendable>(
        _: Rule.Type,
        _ a: SignalProducer<Value, Error>,
        _ b: SignalProducer<B, Error>,
        _ c: SignalProducer<C, Error>
    ) -> SignalProducer<(Value, B, C), Error> {
        .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, (Value, B, C), Error>(input: input, count: 3) { values in
                (values[0] as! Value, values[1] as! B, values[2] as! C)
            }
            lifetime.start(a, combiner.observer(at: 0) { $0 })
            lifetime.start(b, combiner.observer(at: 1) { $0 })
            lifetime.start(c, combiner.observer(at: 2) { $0 })
        }
    }

    /// A producer whose every run starts every producer of `producers` in order into the multi-input
    /// operator that `Rule` decides; with no inputs a run completes at once.
    static func combining<Rule: CombiningRule<Value>, Producers: Sequence>(
        _: Rule.Type,
        _ producers: Producers
    ) -> SignalProducer<[Value], Error> where Producers.Element == SignalProducer<Value, Error> {
        let producers = Array(producers)
        return .makeOperator { input, lifetime in
            let combiner = Combiner<Rule, [Value], Error>(input: input, count: producers.count) { $0 }
            for (index, producer) in producers.enumerated() {
                lifetime.start(producer, combiner.observer(at: index) { $0 })
            }
        }
    }
}
