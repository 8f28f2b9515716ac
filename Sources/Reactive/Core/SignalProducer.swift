/// A cold description of work that produces a signal each time it is started.
///
/// Every `start(_:)` runs the work anew, with a fresh signal and a fresh ``Lifetime``. Disposing the
/// disposable that `start` returns interrupts that run: the observer receives `interrupted` (unless the
/// run already terminated) and the run's lifetime ends, which is where its resources are released.
///
/// ```swift
/// let request = SignalProducer<Int, Never> { observer, lifetime in
///     let task = Task { observer.send(value: await load()); observer.sendCompleted() }
///     lifetime.observeEnded { task.cancel() }
/// }
/// let disposable = request.startWithValues { print($0) }
/// disposable.dispose()  // cancels the task
/// ```
public struct SignalProducer<Value: Sendable, Error: Swift.Error>: Sendable {
    /// How a run starts.
    @usableFromInline let work: Work

    /// How a run starts: with a start handler, as a run of another producer, or with its one value.
    @usableFromInline
    enum Work: Sendable {
        /// Sends this value, then completes (`init(value:)`), straight to the run's observer.
        case value(Value)
        /// The work of one run, given the run's input observer and lifetime.
        case handler(@Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void)
        /// Starts a run of another producer whose events reach the observer transformed, with no signal
        /// of their own (see `fused(_:)`), as `start(_:setup:)` does.
        case fused(@Sendable (Signal<Value, Error>.Observer, _ setup: (any Disposable) -> Void) -> any Disposable)
    }

    /// Creates a producer whose every run calls `startHandler` with that run's input observer and
    /// lifetime.
    ///
    /// - Parameter startHandler: Starts the work. Send events through the observer from any thread;
    ///   release resources when the lifetime ends (it ends on the run's terminal event or on disposal).
    public init(
        _ startHandler: @escaping @Sendable (_ observer: Signal<Value, Error>.Observer, _ lifetime: Lifetime) -> Void
    ) {
        work = .handler(startHandler)
    }

    @inlinable
    init(work: Work) {
        self.work = work
    }

    /// The work of one run, given the run's input observer and lifetime; for a fused producer, a run of
    /// its source whose events go into that input, interrupted when the lifetime ends (the interruption is
    /// registered before the source's work starts, so a synchronous run can be stopped from inside).
    @inlinable
    var startHandler: @Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void {
        switch work {
        case .handler(let startHandler):
            startHandler
        case .fused(let start):
            { input, lifetime in _ = start(input) { lifetime += $0 } }
        case .value(let value):
            { input, lifetime in _ = Self.run(sending: value, setup: { lifetime += $0 }, to: { input.send($0) }) }
        }
    }

    /// Starts a run, delivering its events to `observer`.
    ///
    /// If the returned disposable is disposed before the work starts (from inside an earlier
    /// callout), the work never runs and `observer` receives `interrupted`.
    ///
    /// - Returns: A disposable that interrupts the run.
    @inlinable
    @discardableResult
    public func start(_ observer: Signal<Value, Error>.Observer) -> any Disposable {
        start(observer) { _ in }
    }

    /// Starts a run, delivering its events to `observer`, and hands the disposable that interrupts it to
    /// `setup` before the work starts.
    ///
    /// - Returns: The disposable that interrupts the run.
    @inlinable
    func start(_ observer: Signal<Value, Error>.Observer, setup: (any Disposable) -> Void) -> any Disposable {
        let startHandler: @Sendable (Signal<Value, Error>.Observer, Lifetime) -> Void
        switch work {
        case .handler(let handler):
            startHandler = handler
        case .fused(let start):
            return start(observer, setup)
        case .value(let value):
            return Self.run(sending: value, setup: setup, to: { observer.send($0) })
        }
        let core = SignalCore<Value, Error>(hasOutput: false, isRun: true)
        let input = Signal<Value, Error>.Observer(input: core)
        _ = core.observe(observer)
        let interrupter = RunDisposable(input: input, core: core)
        setup(interrupter)
        if !core.lifetime.hasEnded {
            startHandler(input, core.lifetime)
        }
        return interrupter
    }

    /// Runs a producer made by `init(value:)` that sends `value`: hands its disposable to `setup`, then
    /// delivers `value` and the terminal event to `deliver` before returning, each unless the disposable
    /// was disposed first (the run then ends `interrupted`).
    ///
    /// - Returns: The run's disposable, disposed once the run has ended.
    @inlinable
    static func run(
        sending value: Value,
        setup: (any Disposable) -> Void,
        to deliver: (Signal<Value, Error>.Event) -> Void
    ) -> any Disposable {
        let run = FlagDisposable()
        setup(run)
        guard !run.isDisposed else {
            deliver(.interrupted)
            return run
        }
        deliver(.value(value))
        deliver(run.isDisposed ? .interrupted : .completed)
        run.dispose()
        return run
    }

    /// The disposable of a run of this producer started by `startSynchronously(setup:deliveringTo:)`, or `nil`
    /// when its events are not known at its start: that run then did not start, and the caller starts it
    /// with an observer instead.
    ///
    /// A run whose events are all known (`init(value:)`) needs no observer: it delivers them to `deliver`,
    /// a closure that does not escape, before this returns.
    @inlinable
    func startSynchronously(
        setup: (any Disposable) -> Void,
        deliveringTo deliver: (Signal<Value, Error>.Event) -> Void
    ) -> (any Disposable)? {
        guard case .value(let value) = work else { return nil }
        return Self.run(sending: value, setup: setup, to: deliver)
    }

    /// Starts a run whose events nobody observes (the work runs for its side effects).
    @inlinable
    @discardableResult
    public func start() -> any Disposable {
        start(Signal<Value, Error>.Observer({ _ in }))
    }

    /// Starts a run, calling `action` with each of its events.
    @inlinable
    @discardableResult
    public func start(_ action: @escaping @Sendable (Signal<Value, Error>.Event) -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(action))
    }

    /// Starts a run, calling `action` with each value.
    @inlinable
    @discardableResult
    public func startWithValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(value: action))
    }

    /// Starts a run, calling `action` with each value as `.success` and the error as `.failure`.
    @inlinable
    @discardableResult
    public func startWithResult(_ action: @escaping @Sendable (Result<Value, Error>) -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(value: { action(.success($0)) }, failed: { action(.failure($0)) }))
    }

    /// Starts a run, calling `action` if it fails.
    @inlinable
    @discardableResult
    public func startWithFailed(_ action: @escaping @Sendable (Error) -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(failed: action))
    }

    /// Starts a run, calling `action` when it completes.
    @inlinable
    @discardableResult
    public func startWithCompleted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(completed: action))
    }

    /// Starts a run, calling `action` if it is interrupted.
    @inlinable
    @discardableResult
    public func startWithInterrupted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        start(Signal<Value, Error>.Observer(interrupted: action))
    }

    /// Starts a run and hands its signal to `setup` before the work begins, so `setup` can observe it.
    ///
    /// The work starts exactly when `setup` did not dispose the interrupter, whether or not `setup`
    /// observed or kept the signal. Once the work's start has returned, the run lasts only while someone
    /// can still see or stop it: while its signal has an observer, or someone holds the signal or the
    /// interrupter. When none is left (at once, for a setup that neither observes nor keeps either), the
    /// run is disposed: its lifetime ends, so its resources are released, even if the work still holds
    /// its input. Its lifetime also ends (once) when the run terminates, when it is interrupted, or when
    /// the run's input is released (by the work and by the interrupter); events sent while nobody
    /// observes go nowhere.
    ///
    /// ```swift
    /// producer.startWithSignal { _, _ in }  // runs the work for its side effects, then disposes the run
    /// ```
    ///
    /// - Parameter setup: Receives the run's signal and the disposable that interrupts the run.
    /// - Returns: What `setup` returns.
    @inlinable
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Error>, _ interrupter: any Disposable) -> Result
    ) -> Result {
        let core = SignalCore<Value, Error>(isRun: true)
        let input = Signal<Value, Error>.Observer(input: core)
        // Neither the signal nor the interrupter is kept here: once `setup` has returned, only what it kept
        // holds them, and their release (before or after the work's start) is what ends an unkept run.
        let result = setup(Signal(core: core), RunDisposable(input: input, core: core, reportsRelease: true))
        if !core.lifetime.hasEnded {
            startHandler(input, core.lifetime)
        }
        core.runStarted()
        return result
    }
}

/// The disposable of one producer run: disposing it interrupts the run.
///
/// It keeps the run's input observer, so the run is not interrupted by the work letting go of its input
/// while someone holds the disposable. Interrupting twice is harmless: the run's signal ignores every
/// event after its terminal one, which is also what `isDisposed` reads (no lock of its own).
///
/// The interrupter a `startWithSignal` setup is given reports its release to the run's signal, which
/// tears down once nobody observes it or holds it or this disposable (`SignalCoreBase.interrupterReleased()`).
@usableFromInline
final class RunDisposable<Value: Sendable, Error: Swift.Error>: Disposable {
    @usableFromInline let input: Signal<Value, Error>.Observer
    @usableFromInline let core: SignalCore<Value, Error>
    @usableFromInline let reportsRelease: Bool

    @inlinable
    init(input: Signal<Value, Error>.Observer, core: SignalCore<Value, Error>, reportsRelease: Bool = false) {
        self.input = input
        self.core = core
        self.reportsRelease = reportsRelease
    }

    deinit {
        if reportsRelease {
            core.interrupterReleased()
        }
    }

    /// Whether the run was interrupted or ended by itself.
    @inlinable
    var isDisposed: Bool { core.hasTerminated }

    /// Interrupts the run, unless it has ended.
    ///
    /// Called through `any Disposable`, this runs unspecialised, where making the `interrupted` event looks
    /// up its generic type at run time: a run that ended (a load answered, then disposed) is not sent one.
    @inlinable
    func dispose() {
        if !core.hasTerminated {
            input.sendInterrupted()
        }
    }
}
