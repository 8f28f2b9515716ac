/// Read-only properties that one owner changes together, for libraries built on this package.
///
/// The owner makes each property with `makeProperty(_:)` and keeps its ``GroupedProperty`` write
/// handle. To change several at once, it stages each new value (stored at once, in order) and only
/// then runs the returned notifications: an observer of one property already reads the new values of
/// all the others. Observers may call back into the owner; the notifications of those calls queue
/// behind the current ones.
///
/// Staging and running a notification are inlinable, so that an owner whose own code is inlined into its
/// clients' modules stages and delivers with code specialised for their types.
package enum PropertyGroup {
    /// Makes a property holding `initial` and its write handle.
    package static func makeProperty<Value: Sendable>(_ initial: Value) -> (Property<Value>, GroupedProperty<Value>) {
        let storage = PropertyStorage(initial)
        return (Property(owning: storage), GroupedProperty(storage: storage))
    }
}

/// The owner's write handle on a property made by `PropertyGroup.makeProperty(_:)`.
@usableFromInline
package struct GroupedProperty<Value: Sendable>: Sendable {
    @usableFromInline let storage: PropertyStorage<Value>

    @inlinable
    init(storage: PropertyStorage<Value>) {
        self.storage = storage
    }

    /// Stores `value` now and returns the notification to run once every value of the group is stored.
    ///
    /// - Returns: The notification to run with no lock held, or `nil` if a delivery already running
    ///   will deliver it.
    ///
    /// The value is taken: the property keeps one copy, and the event that notifies its observers the
    /// caller's.
    @inlinable
    package func stage(_ value: consuming Value) -> SignalDrain? {
        let core = storage.core
        var pending: Value? = consume value
        let (_, drains) = core.stageKeepingDrain {
            let value = pending.take().unsafelyUnwrapped
            storage.store(value)
            return .value(value)
        }
        return drains ? SignalDrain(keptOn: core) : nil
    }

    /// The current value.
    package var value: Value { storage.value }
}

/// A staged notification; see `GroupedProperty.stage(_:)`.
@usableFromInline
package struct SignalDrain: Sendable {
    @usableFromInline let core: SignalCoreBase
    /// Runs the drain kept on `core`.
    ///
    /// A function of the signal's type that captures nothing once specialised, so making a drain in
    /// specialised code allocates nothing. Run it exactly once: a second run would take a drain staged
    /// later, by another caller.
    @usableFromInline let run: @Sendable (SignalCoreBase) -> Void

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
    package func callAsFunction() {
        run(core)
    }
}

/// The input of a signal owned by a library built on this package, which stages its events like
/// ``GroupedProperty`` so they are delivered in order with the group's property changes.
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
