/// A thread-safe value that notifies its observers of every change.
///
/// - `value` reads and writes are each atomic; `modify(_:)` is an atomic read-modify-write that
///   notifies once. `property.value += 1` is a read then a write: two atomic steps, not one.
/// - ``signal`` sends every change; ``producer`` sends the current value, then every change, with no
///   gap and no duplicate even while other threads write.
/// - Reentrancy: an observer may set the property it observes. The write commits at once (a read right
///   after it returns the new value) and its notification is queued behind the current one, so every
///   observer sees the values in the order they were stored.
/// - When the property is released its ``signal`` completes and its ``lifetime`` ends.
///
/// ```swift
/// let count = MutableProperty(0)
/// count.producer.startWithValues { print($0) }  // prints 0
/// count.value = 1                               // prints 1
/// count.modify { $0 += 1 }                      // prints 2
/// ```
public final class MutableProperty<Value: Sendable>: Sendable {
    @usableFromInline let storage: PropertyStorage<Value>

    /// The changes of the property, not including the value it had when observed.
    ///
    /// Completes when the property is released.
    public let signal: Signal<Value, Never>

    /// Ends when the property is released; bindings into the property end with it.
    public let lifetime: Lifetime
    private let lifetimeToken: Lifetime.Token

    /// Creates a property holding `initial`.
    public init(_ initial: Value) {
        storage = PropertyStorage(initial)
        signal = Signal(core: storage.core)
        (lifetime, lifetimeToken) = Lifetime.make()
    }

    /// The current value.
    ///
    /// Setting it stores the value and notifies every observer.
    @inlinable
    public var value: Value {
        get { storage.value }
        set { storage.set(newValue) }
    }

    /// The current value, then every change.
    public var producer: SignalProducer<Value, Never> {
        storage.producer
    }

    /// Changes the value atomically and notifies observers once with the result.
    ///
    /// - Parameter body: Runs under the property's lock: it must not read or write this property.
    /// - Returns: What `body` returns.
    @inlinable
    @discardableResult
    public func modify<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.modify(body)
    }

    /// Sets the value to `newValue` and returns the value it replaced, in one atomic step.
    ///
    /// Observers are notified once, with `newValue`.
    ///
    /// - Parameter newValue: The value to store.
    /// - Returns: The value the property held just before.
    @inlinable
    @discardableResult
    public func swap(_ newValue: Value) -> Value {
        storage.swap(newValue)
    }

    deinit {
        storage.complete()
    }
}

extension PropertyStorage {
    /// The current value, then every change, for each run.
    var producer: SignalProducer<Value, Never> {
        SignalProducer { [self] observer, lifetime in
            lifetime += observeCurrentAndChanges(observer)
        }
    }
}
