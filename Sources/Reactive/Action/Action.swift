/// Work that runs at most once at a time, with observable progress and results.
///
/// `apply(_:)` returns a producer. Starting it checks, atomically, that the action is enabled and not
/// executing, and marks it executing in the same step: two threads can never both start it. A start
/// that loses fails at once with ``ActionError/disabled`` and starts nothing.
///
/// ``isExecuting`` is `true` exactly while the work runs: it reads `false, true, false` in that order
/// even for work that finishes inside `start`, and it is already `false` when the run's terminal event
/// reaches its observers, so they may apply the action again.
///
/// Every run's events also reach ``events``, ``values``, ``errors`` and ``completed``. Releasing the
/// action interrupts runs still in flight and ends these signals.
///
/// ```swift
/// let save = Action { (text: String) in api.save(text) }
/// save.values.observeValues { print("saved", $0) }
/// save.apply("hello").start()
/// save.apply("again").start()  // fails with .disabled while the first runs
/// ```
public final class Action<Input: Sendable, Output: Sendable, Error: Swift.Error>: Sendable {
    /// Reads the enabling condition and, if it holds, returns how to make the work of a run.
    ///
    /// Called under the action's admission lock (under `executing`'s for an action with no condition), so
    /// the check and the start are one atomic step: it only reads a property (no user code), and the work
    /// is made after unlocking.
    ///
    /// Internal rather than private, like the stored properties below, so that `apply(_:)` can be
    /// inlined and specialized in the caller's module: run as generic code inside Reactive, an execution
    /// spent most of its time looking up generic metadata.
    @usableFromInline let admit: @Sendable () -> (@Sendable (Input) -> SignalProducer<Output, Error>)?
    @usableFromInline let status: ActionStatus
    @usableFromInline let outputs: Outputs
    /// The run in flight, interrupted when the action is released.
    @usableFromInline let runSlot = ActionRunSlot()
    private let lifetime: Lifetime
    private let lifetimeToken: Lifetime.Token

    /// Whether a run is in progress.
    ///
    /// It notifies only when the value changes: `true` when a run starts, `false` when it ends.
    public let isExecuting: Property<Bool>

    /// Whether `apply(_:)` would start a run now: the `enabledIf` condition holds and no run is
    /// in progress.
    ///
    /// It notifies only when the value changes, so an observer may write the enabling property back,
    /// even with an equal value, without looping.
    public let isEnabled: Property<Bool>

    /// Every event of every run, in order.
    public var events: Signal<Signal<Output, Error>.Event, Never> { outputs.events.output }

    /// Every value of every run.
    public var values: Signal<Output, Never> { outputs.values.output }

    /// The error of every run that failed.
    public var errors: Signal<Error, Never> { outputs.errors.output }

    /// Sends once for every run that completed successfully.
    public var completed: Signal<Void, Never> { outputs.completed.output }

    /// Sends once for every `apply(_:)` run that was refused because the action was disabled.
    public var disabledErrors: Signal<Void, Never> { outputs.disabled.output }

    /// Creates an action that runs the producer `execute` returns, whenever `enabledIf` is `true` and
    /// no run is in progress.
    ///
    /// - Parameters:
    ///   - enabledIf: Read once, atomically with the start of each run.
    ///   - execute: Makes the work of one run from its input.
    @inlinable
    public convenience init(
        enabledIf: Property<Bool>,
        execute: @escaping @Sendable (Input) -> SignalProducer<Output, Error>
    ) {
        // The output pipes are made here, inlined in the caller's module, so that sending into them runs
        // code specialized for `Output` and `Error`.
        self.init(enabledIf: enabledIf, outputs: Outputs()) { enabledIf.value ? execute : nil }
    }

    /// Creates an action that is enabled whenever no run is in progress.
    @inlinable
    public convenience init(execute: @escaping @Sendable (Input) -> SignalProducer<Output, Error>) {
        // No condition to read or follow: each start and each end of a run takes one lock fewer.
        self.init(enabledIf: nil, outputs: Outputs()) { execute }
    }

    /// Creates an action whose runs each get the value of `state` at the moment they start, and that
    /// is enabled whenever `isEnabled` holds for that value and no run is in progress.
    ///
    /// The state a run receives is the very value the enabling check accepted: the check and the start
    /// are one atomic step, even while other threads change `state`.
    ///
    /// ```swift
    /// let page = MutableProperty(1)
    /// let load = Action(state: Property(page), enabledIf: { $0 > 0 }) { page, size in api.load(page, size) }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state the runs read.
    ///   - isEnabled: Decides from a state value whether the action is enabled. It runs when `state`
    ///     changes, on the changing thread, with no lock held.
    ///   - execute: Makes the work of one run from the state and the input.
    public convenience init<State: Sendable>(
        state: Property<State>,
        enabledIf isEnabled: @escaping @Sendable (State) -> Bool,
        execute: @escaping @Sendable (State, Input) -> SignalProducer<Output, Error>
    ) {
        // Each state value travels with its verdict, so one atomic read gives both.
        let gate = state.map { (state: $0, isEnabled: isEnabled($0)) }
        self.init(enabledIf: gate.map(\.isEnabled), outputs: Outputs()) {
            let current = gate.value
            guard current.isEnabled else { return nil }
            return { input in execute(current.state, input) }
        }
    }

    /// Creates an action whose runs each get the value of `state` at the moment they start; it is
    /// enabled whenever no run is in progress.
    ///
    /// - Parameters:
    ///   - state: The state the runs read.
    ///   - execute: Makes the work of one run from the state and the input.
    public convenience init<State: Sendable>(
        state: Property<State>,
        execute: @escaping @Sendable (State, Input) -> SignalProducer<Output, Error>
    ) {
        self.init(state: state, enabledIf: { _ in true }, execute: execute)
    }

    /// Creates an action over the state of a mutable property; see `init(state:enabledIf:execute:)`.
    public convenience init<State: Sendable>(
        state: MutableProperty<State>,
        enabledIf isEnabled: @escaping @Sendable (State) -> Bool,
        execute: @escaping @Sendable (State, Input) -> SignalProducer<Output, Error>
    ) {
        self.init(state: Property(state), enabledIf: isEnabled, execute: execute)
    }

    @usableFromInline
    init(
        enabledIf: Property<Bool>?,
        outputs: Outputs,
        admit: @escaping @Sendable () -> (@Sendable (Input) -> SignalProducer<Output, Error>)?
    ) {
        let status = ActionStatus(condition: enabledIf)
        self.admit = admit
        self.status = status
        self.isExecuting = Property(owning: status.executing)
        // Changes only: an observer that writes an equal value back into `enabledIf` does not make
        // `isEnabled` send again, so the feedback ends.
        self.isEnabled = Property(owning: status.enabled)
        self.outputs = outputs
        (lifetime, lifetimeToken) = Lifetime.make()
        lifetime += runSlot
        if let following = status.followCondition() {
            lifetime += following
        }
    }

    /// A producer whose every start tries to run the action with `input`.
    ///
    /// The start fails at once with ``ActionError/disabled`` if the action is executing or disabled;
    /// otherwise it runs the work, forwarding its events (a failure as
    /// `ActionError.producerFailed(_:)`). Disposing the start interrupts the work.
    ///
    /// A run of the returned producer is the run of the work itself, with no signal of its own: its
    /// events reach the observer from the work's serialised delivery, each after the action's outputs and,
    /// for the terminal event, after ``isExecuting`` became `false`.
    @inlinable
    public func apply(_ input: Input) -> SignalProducer<Output, ActionError<Error>> {
        SignalProducer(
            work: .fused { [admit, status, outputs, runSlot] observer, setup in
                guard let make = status.start(admit) else {
                    outputs.disabled.input.send(value: ())
                    let refused = AnyDisposable()
                    setup(refused)
                    observer.send(error: .disabled)
                    return refused
                }
                let work = make(input)
                let hold: (any Disposable) -> Void = { interrupter in
                    runSlot.hold(interrupter)
                    setup(interrupter)
                }
                // Work whose events are known at its start (`SignalProducer(value:)`) is delivered here, with
                // no observer of its own.
                if let run = work.startSynchronously(
                    setup: hold,
                    deliveringTo: { Self.forward($0, status: status, outputs: outputs, runSlot: runSlot, to: observer) }
                ) {
                    return run
                }
                return work.start(
                    Signal<Output, Error>.Observer({ event in
                        Self.forward(event, status: status, outputs: outputs, runSlot: runSlot, to: observer)
                    }),
                    setup: hold
                )
            })
    }

    /// Delivers an event of a run: to the action's outputs, then to the observer of `apply(_:)`'s producer;
    /// a terminal event first ends the run (``isExecuting`` turns `false`).
    @inlinable
    static func forward(
        _ event: Signal<Output, Error>.Event,
        status: ActionStatus,
        outputs: Outputs,
        runSlot: ActionRunSlot,
        to observer: Signal<Output, ActionError<Error>>.Observer
    ) {
        outputs.events.input.send(value: event)
        switch event {
        case .value(let value):
            outputs.values.input.send(value: value)
            observer.send(value: value)
        case .failed(let error):
            runSlot.release()
            status.finish()
            outputs.errors.input.send(value: error)
            observer.send(error: .producerFailed(error))
        case .completed:
            runSlot.release()
            status.finish()
            outputs.completed.input.send(value: ())
            observer.sendCompleted()
        case .interrupted:
            runSlot.release()
            status.finish()
            observer.sendInterrupted()
        }
    }

    /// The pipes that carry every run's outputs; released with the action, which ends them.
    @usableFromInline
    final class Outputs: Sendable {
        @usableFromInline let events = Signal<Signal<Output, Error>.Event, Never>.pipe()
        @usableFromInline let values = Signal<Output, Never>.pipe()
        @usableFromInline let errors = Signal<Error, Never>.pipe()
        @usableFromInline let completed = Signal<Void, Never>.pipe()
        @usableFromInline let disabled = Signal<Void, Never>.pipe()

        @inlinable
        init() {}
    }
}

extension Action where Input == Void {
    /// A producer whose every start tries to run the action; see `apply(_:)`.
    @inlinable
    public func apply() -> SignalProducer<Output, ActionError<Error>> {
        apply(())
    }
}
