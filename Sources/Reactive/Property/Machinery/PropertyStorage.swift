/// The value of a property and the signal of its changes, guarded by one lock.
///
/// The value lives under the signal core's own lock, so storing a value and accepting its change
/// event are one atomic step, and so are reading the current value and attaching an observer. That
/// is what lets ``Property/producer`` send the current value and then every change with no gap and no
/// duplicate, whatever threads write.
@usableFromInline
final class PropertyStorage<Value: Sendable>: @unchecked Sendable {
    // Guarded by `core`'s lock.
    @exclusivity(unchecked) @usableFromInline var current: Value
    @usableFromInline let core: SignalCore<Value, Never>

    @inlinable
    init(_ initial: Value) {
        current = initial
        core = SignalCore(hasOutput: true)
    }

    @inlinable
    var value: Value {
        core.domain.withLock { _ in current }
    }

    /// Stores `newValue` without notifying; call only inside a `SignalCore.stage(_:)` closure, which holds
    /// the lock that guards the value.
    @inlinable
    func store(_ newValue: Value) {
        current = newValue
    }

    /// Stores `newValue` and notifies observers (after the lock is released).
    @inlinable
    func set(_ newValue: Value) {
        core.send {
            current = newValue
            return .value(newValue)
        }
    }

    /// Runs `body` on the value atomically, then notifies observers once with the result.
    ///
    /// `body` runs under the lock: it must not touch this property.
    @inlinable
    func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        var result: Result?
        try core.send {
            result = try body(&current)
            return .value(current)
        }
        return result!
    }

    /// Stores `newValue`, notifies observers, and returns the value it replaced, atomically.
    @inlinable
    func swap(_ newValue: Value) -> Value {
        var old: Value?
        core.send {
            old = current
            current = newValue
            return .value(newValue)
        }
        return old!
    }

    /// Lets `body` change the value atomically; notifies observers only if `body` returns `true`.
    ///
    /// - Returns: What `body` returned.
    @inlinable
    @discardableResult
    func transition(_ body: (inout Value) -> Bool) -> Bool {
        var changed = false
        core.send {
            changed = body(&current)
            return changed ? .value(current) : nil
        }
        return changed
    }

    /// Attaches `observer` and sends it the current value first, atomically with the attachment.
    @inlinable
    func observeCurrentAndChanges(_ observer: Signal<Value, Never>.Observer) -> any Disposable {
        core.observe(observer) { .value(current) }
    }

    /// Calls `action` with the current value, then with every change, as ``Property/producer`` does, but
    /// from this property's own delivery: a derived property feeds itself this way, with no signal of a
    /// producer run between the two.
    ///
    /// - Returns: The disposable that stops the calls.
    @inlinable
    func observeCurrentAndChanges(valuesTo action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        observeCurrentAndChanges(Signal<Value, Never>.Observer(value: action))
    }

    /// Completes the change signal: the property is gone.
    @inlinable
    func complete() {
        core.send(.completed)
    }
}
