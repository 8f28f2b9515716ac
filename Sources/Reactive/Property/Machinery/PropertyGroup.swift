/// Read-only properties that one owner sets, for libraries built on this package.
///
/// The owner makes each property with `makeProperty(_:)` and keeps its ``PropertyInput``; everyone else
/// gets the read-only ``Property``. Observers may call back into the owner while they are notified.
package enum PropertyGroup {
    /// Makes a property holding `initial` and its input.
    package static func makeProperty<Value: Sendable>(_ initial: Value) -> (Property<Value>, PropertyInput<Value>) {
        let storage = PropertyStorage(initial)
        return (Property(owning: storage), PropertyInput(storage: storage))
    }
}

/// The owner's input of a property made by `PropertyGroup.makeProperty(_:)`.
@usableFromInline
package struct PropertyInput<Value: Sendable>: Sendable {
    @usableFromInline let storage: PropertyStorage<Value>

    @inlinable
    init(storage: PropertyStorage<Value>) {
        self.storage = storage
    }

    /// Stores `value` and notifies the observers: at once, or, when a notification of the property is
    /// running (an observer set it again), after that one, in order.
    @inlinable
    package func set(_ value: Value) {
        storage.set(value)
    }

    /// Replaces the value with `makeValue` of it and notifies the observers, as ``set(_:)`` does.
    ///
    /// `makeValue` runs under the property's lock, so it must be pure.
    ///
    /// - Returns: The value replaced, for the caller to release with no lock held (its release may run
    ///   user code, a `deinit`, which may read this property).
    @inlinable
    package func replace(_ makeValue: (Value) -> Value) -> Value {
        storage.modify { value in
            var replaced = makeValue(value)
            swap(&value, &replaced)
            return replaced
        }
    }

    /// Completes the property's signal; its value stays readable and settable.
    package func complete() {
        storage.complete()
    }

    /// The current value.
    @inlinable
    package var value: Value { storage.value }
}
