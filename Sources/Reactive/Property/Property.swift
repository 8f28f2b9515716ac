/// A read-only view of a value that changes over time.
///
/// A `Property` is either a view of a ``MutableProperty`` (it shares its value and notifications), a
/// constant, or derived from other properties (`map(_:)`, `combineLatest(with:)`,
/// `skipRepeats(_:)`). A derived property's value always equals the derivation of its sources' values
/// once every notification has been delivered, and its observers never see a value older than one they
/// have already seen. A property keeps the properties it derives from alive.
///
/// ```swift
/// let count = MutableProperty(1)
/// let label = Property(count).map { "\($0) items" }
/// label.value  // "1 items"
/// ```
public final class Property<Value: Sendable>: Sendable {
    @usableFromInline let storage: PropertyStorage<Value>

    /// The changes of the property, not including the value it had when observed.
    public let signal: Signal<Value, Never>

    // What this property keeps alive: its sources, and the observation that feeds it.
    private let retained: [any Sendable]
    private let feed: (any Disposable)?
    // A view of a `MutableProperty` shares its storage and must not complete it: the mutable property
    // does, when it is released.
    private let ownsStorage: Bool

    /// Creates a read-only view of `property`, sharing its value and its notifications.
    ///
    /// Releasing the view does not affect `property`.
    public init(_ property: MutableProperty<Value>) {
        storage = property.storage
        signal = property.signal
        retained = [property]
        feed = nil
        ownsStorage = false
    }

    /// Creates a property that always holds `value`.
    ///
    /// Its ``producer`` sends `value` then completes; its ``signal`` has completed.
    public init(value: Value) {
        storage = PropertyStorage(value)
        signal = Signal(core: storage.core)
        retained = []
        feed = nil
        ownsStorage = true
        storage.complete()
    }

    /// Creates a property that starts as `initial` and then holds each value `values` sends.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Observed for as long as the property lives.
    public convenience init(initial: Value, then values: Signal<Value, Never>) {
        self.init(initial: initial, then: values, retaining: [values])
    }

    /// Creates a property that starts as `initial`, then starts `values` and holds each value it sends.
    public convenience init(initial: Value, then values: SignalProducer<Value, Never>) {
        let storage = PropertyStorage(initial)
        let feed = values.startWithValues { storage.set($0) }
        self.init(storage: storage, retaining: [], feed: feed)
    }

    private convenience init(initial: Value, then values: Signal<Value, Never>, retaining: [any Sendable]) {
        let storage = PropertyStorage(initial)
        let feed = values.observeValues { storage.set($0) }
        self.init(storage: storage, retaining: retaining, feed: feed)
    }

    init(storage: PropertyStorage<Value>, retaining: [any Sendable], feed: (any Disposable)?) {
        self.storage = storage
        self.signal = Signal(core: storage.core)
        self.retained = retaining
        self.feed = feed
        self.ownsStorage = true
    }

    /// The current value.
    @inlinable
    public var value: Value {
        storage.value
    }

    /// The current value, then every change, with no gap and no duplicate.
    public var producer: SignalProducer<Value, Never> {
        storage.producer
    }

    deinit {
        feed?.dispose()
        if ownsStorage {
            storage.complete()
        }
    }
}

extension Property {
    /// A property holding `transform` of this property's value, kept up to date.
    ///
    /// `transform` runs on the thread that changed the source, once per change.
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Property<NewValue> {
        let storage = PropertyStorage(transform(value))
        let feed = self.storage.observeCurrentAndChanges(valuesTo: { storage.set(transform($0)) })
        return Property<NewValue>(storage: storage, retaining: [self], feed: feed)
    }

    /// A property holding the value at `keyPath` of this property's value.
    public func map<NewValue: Sendable>(_ keyPath: KeyPath<Value, NewValue> & Sendable) -> Property<NewValue> {
        map { $0[keyPath: keyPath] }
    }

    /// A property holding this property's value and `other`'s as a pair, updated when either changes.
    ///
    /// The pair changes once per change of either side: when both sides follow one source, an
    /// observer sees the pair with one side new first, then with both new.
    public func combineLatest<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        let storage = PropertyStorage((value, other.value))
        let feed = CompositeDisposable()
        feed += self.storage.observeCurrentAndChanges(valuesTo: { first in storage.modify { $0.0 = first } })
        feed += other.storage.observeCurrentAndChanges(valuesTo: { second in storage.modify { $0.1 = second } })
        return Property<(Value, Other)>(storage: storage, retaining: [self, other], feed: feed)
    }

    /// A property that changes only when `isEquivalent` says the new value differs from the current one.
    ///
    /// `isEquivalent` runs on the thread that changed the source, with no lock held.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        let storage = PropertyStorage(value)
        let feed = self.storage.observeCurrentAndChanges(valuesTo: { newValue in
            // Only this feed writes `storage`, one value at a time (serialised delivery), so reading,
            // comparing and then storing cannot interleave with another write, and the user's
            // comparator runs outside the property's lock.
            guard !isEquivalent(storage.value, newValue) else { return }
            storage.set(newValue)
        })
        return Property(storage: storage, retaining: [self], feed: feed)
    }
}

extension Property where Value: Equatable {
    /// A property that changes only when the new value differs from the current one.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

extension Property {
    /// A property holding this property's value and `other`'s as a pair; see `combineLatest(with:)-(Property<Other>)`.
    public func combineLatest<Other: Sendable>(with other: MutableProperty<Other>) -> Property<(Value, Other)> {
        combineLatest(with: Property<Other>(other))
    }
}

extension MutableProperty {
    /// A read-only property holding `transform` of this property's value; see `Property.map(_:)-(_)`.
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Property<NewValue> {
        Property(self).map(transform)
    }

    /// A read-only property holding the value at `keyPath` of this property's value.
    public func map<NewValue: Sendable>(_ keyPath: KeyPath<Value, NewValue> & Sendable) -> Property<NewValue> {
        Property(self).map(keyPath)
    }

    /// A read-only property holding this property's value and `other`'s as a pair, updated when either
    /// changes; see `Property.combineLatest(with:)-(Property<Other>)`.
    public func combineLatest<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        Property(self).combineLatest(with: other)
    }

    /// A read-only property holding this property's value and `other`'s as a pair, updated when either
    /// changes.
    public func combineLatest<Other: Sendable>(with other: MutableProperty<Other>) -> Property<(Value, Other)> {
        Property(self).combineLatest(with: Property<Other>(other))
    }

    /// A read-only property that changes only when `isEquivalent` says the new value differs from the
    /// current one; see `Property.skipRepeats(_:)`.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        Property(self).skipRepeats(isEquivalent)
    }
}

extension MutableProperty where Value: Equatable {
    /// A read-only property that changes only when the new value differs from the current one.
    public func skipRepeats() -> Property<Value> {
        Property(self).skipRepeats(==)
    }
}
