extension Property {
    /// A property holding `transform` of this property's value, kept up to date.
    ///
    /// `transform` runs on the thread that changed the source, once per change. The result completes when
    /// this property does.
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Property<NewValue> {
        let storage = PropertyStorage(transform(value))
        let feed = self.observeCurrentAndChanges(storage.feedObserver(transform))
        return Property<NewValue>(derived: storage, sources: [self], feed: feed)
    }

    /// A property holding the value at `keyPath` of this property's value.
    public func map<NewValue: Sendable>(_ keyPath: KeyPath<Value, NewValue> & Sendable) -> Property<NewValue> {
        map { $0[keyPath: keyPath] }
    }

    /// A property holding this property's value and `other`'s as a pair, updated when either changes.
    ///
    /// The pair changes once per change of either side: when both sides follow one source, an
    /// observer sees the pair with one side new first, then with both new. The result completes once
    /// both sides have completed.
    public func combineLatest<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        let storage = PropertyStorage((value, other.value))
        let open = LockedState(2)
        let completeOne: @Sendable () -> Void = {
            let isLast = open.withLock { count -> Bool in
                count -= 1
                return count == 0
            }
            if isLast { storage.complete() }
        }
        let feed = CompositeDisposable()
        feed += self.observeCurrentAndChanges(
            Signal<Value, Never>.Observer(
                value: { first in storage.modify { $0.0 = first } },
                completed: completeOne,
                interrupted: completeOne
            ))
        feed += other.observeCurrentAndChanges(
            Signal<Other, Never>.Observer(
                value: { second in storage.modify { $0.1 = second } },
                completed: completeOne,
                interrupted: completeOne
            ))
        return Property<(Value, Other)>(derived: storage, sources: [self, other], feed: feed)
    }

    /// A property that changes only when `isEquivalent` says the new value differs from the current one.
    ///
    /// `isEquivalent` runs on the thread that changed the source, with no lock held. The result
    /// completes when this property does.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        let storage = PropertyStorage(value)
        let feed = self.observeCurrentAndChanges(
            Signal<Value, Never>.Observer(
                value: { newValue in
                    // Only this feed writes `storage`, one value at a time (serialised delivery), so reading,
                    // comparing and then storing cannot interleave with another write, and the user's
                    // comparator runs outside the property's lock.
                    guard !isEquivalent(storage.value, newValue) else { return }
                    storage.set(newValue)
                },
                completed: { storage.complete() },
                interrupted: { storage.complete() }
            ))
        return Property(derived: storage, sources: [self], feed: feed)
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
