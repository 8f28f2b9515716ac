/// A staged notification; see `StagedSignalInput.stage(_:)`.
///
/// Not copyable, and run by a `consuming` call: the compiler sees to it that a drain is run at most once
/// (a second run would take a drain staged later, by another caller). A drain dropped without being run
/// would leave its signal draining forever; debug builds trap there.
@usableFromInline
package struct SignalDrain: ~Copyable, Sendable {
    @usableFromInline let core: SignalCoreBase
    /// Runs the drain kept on `core`.
    ///
    /// A function of the signal's type that captures nothing once specialised, so making a drain in
    /// specialised code allocates nothing.
    @usableFromInline let run: @Sendable (SignalCoreBase) -> Void
    /// Whether it has run, for the check of debug builds.
    @usableFromInline var hasRun = false

    /// The drain that `core.stageKeepingDrain(_:)` kept on `core`.
    @inlinable
    init<Value, Error>(keptOn core: SignalCore<Value, Error>) {
        self.core = core
        run = { unsafeDowncast($0, to: SignalCore<Value, Error>.self).runStaged() }
    }

    /// Delivers the staged notification and any queued behind it.
    ///
    /// Call it with no lock held.
    @inlinable
    package consuming func callAsFunction() {
        run(core)
        hasRun = true
    }

    deinit {
        assert(hasRun, "A staged drain was dropped without being run: its signal would never deliver again")
    }
}

/// The input of a signal owned by a library built on this package, which stages its events: the event is
/// accepted under the owner's own lock, in the owner's order, and delivered after the owner unlocks.
@usableFromInline
package struct StagedSignalInput<Value: Sendable>: Sendable {
    @usableFromInline let core: SignalCore<Value, Never>

    @inlinable
    init(core: SignalCore<Value, Never>) {
        self.core = core
    }

    /// Makes the signal and its staged input.
    package static func make() -> (Signal<Value, Never>, StagedSignalInput<Value>) {
        let core = SignalCore<Value, Never>()
        return (Signal(core: core), StagedSignalInput(core: core))
    }

    /// Accepts `value` now; returns the notification to run with no lock held, if any.
    @inlinable
    package func stage(_ value: Value) -> SignalDrain? {
        core.stageKeepingDrain { .value(value) }.drains ? SignalDrain(keptOn: core) : nil
    }

    /// Completes the signal.
    package func sendCompleted() {
        core.send(.completed)
    }
}
