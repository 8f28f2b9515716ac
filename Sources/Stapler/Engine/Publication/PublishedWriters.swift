import Reactive

// The engine's handles on what it publishes, over Reactive's `PropertyGroup` API. That API is `package`, and
// usable from inlinable code: these wrappers are inlined with the engine into the client's module, so a
// page's notifications are staged and delivered by code specialised for the published types (run
// unspecialised, they looked up generic metadata 35 times a page). Each call is one staged notification.

/// The write handle of a published property.
@usableFromInline
struct PropertyWriter<Value: Sendable>: Sendable {
    @usableFromInline let handle: GroupedProperty<Value>

    @inlinable
    init(handle: GroupedProperty<Value>) {
        self.handle = handle
    }

    /// Makes a read-only property holding `initial`, and its writer.
    @usableFromInline
    static func make(_ initial: Value) -> (Property<Value>, PropertyWriter) {
        let (property, handle) = PropertyGroup.makeProperty(initial)
        return (property, PropertyWriter(handle: handle))
    }

    /// Stores `value` now; returns the notification to run once the whole publication is staged.
    @inlinable
    func stage(_ value: consuming Value) -> StagedNotification? {
        handle.stage(value).map(StagedNotification.init)
    }
}

/// The input of a published signal.
@usableFromInline
struct SignalWriter<Value: Sendable>: Sendable {
    @usableFromInline let input: StagedSignalInput<Value>

    @inlinable
    init(input: StagedSignalInput<Value>) {
        self.input = input
    }

    /// Makes a signal and its writer.
    @usableFromInline
    static func make() -> (Signal<Value, Never>, SignalWriter) {
        let (signal, input) = StagedSignalInput<Value>.make()
        return (signal, SignalWriter(input: input))
    }

    /// Accepts `value` now; returns the notification to run once the whole publication is staged.
    @inlinable
    func stage(_ value: Value) -> StagedNotification? {
        input.stage(value).map(StagedNotification.init)
    }

    /// Completes the signal.
    @usableFromInline
    func complete() {
        input.sendCompleted()
    }
}

/// A staged notification of one property or signal, to run with no lock held.
@usableFromInline
struct StagedNotification: Sendable {
    @usableFromInline let drain: SignalDrain

    @inlinable
    init(drain: SignalDrain) {
        self.drain = drain
    }

    /// Delivers the staged change, and any queued behind it.
    @inlinable
    func callAsFunction() {
        drain()
    }
}
