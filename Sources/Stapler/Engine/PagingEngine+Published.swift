import Reactive

// Every published property of a paginator is a projection of its one published value (a
// `PublicationChange`): its value reads the current publication, and its signal, derived inline from the
// published value's, sends a change when the property's skip rule finds the current publication differs
// from the one before. No property stores a value or queues a notification of its own, so while any
// observer is notified of a publication, every property holds that publication's values.

extension PagingEngine {
    // MARK: Published values

    /// The published value in `property`, made by `make` on first use and kept, so that every read of a
    /// paginator's property returns the same object.
    @inlinable
    func published<Value: AnyObject>(_ property: PublishedProperty, make: () -> Value) -> Value {
        publishedValues.withLock { values in
            if let made = values[property.rawValue] { return unsafeDowncast(made, to: Value.self) }
            let made = make()
            values[property.rawValue] = made
            return made
        }
    }

    /// The property in `property`, holding `project` of the current snapshot.
    ///
    /// - Parameters:
    ///   - property: Which published property it is, and where it is kept.
    ///   - project: Pure; runs for every publication the property is observed through, and for each read.
    ///   - isEquivalent: When given, a publication that projects an equivalent value notifies nobody. It
    ///     must be an equivalence relation (each value is compared with the previous publication's).
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skipping isEquivalent: (@Sendable (Value, Value) -> Bool)? = nil
    ) -> Property<Value> {
        published(property) {
            guard let isEquivalent else {
                return publication.projection({ project($0.current.contents.snapshot) }) { change in
                    change.isDerivedOnly ? nil : project(change.current.contents.snapshot)
                }
            }
            return publication.projection({ project($0.current.contents.snapshot) }) { change in
                guard !change.isDerivedOnly else { return nil }
                let value = project(change.current.contents.snapshot)
                return isEquivalent(project(change.previous.contents.snapshot), value) ? nil : value
            }
        }
    }

    /// The property in `property`, holding `project` of the current snapshot, notifying nobody for a
    /// publication whose snapshot `isSame` as the one before (an equivalence relation, pure).
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skippingSnapshots isSame: @escaping @Sendable (Snapshot, Snapshot) -> Bool
    ) -> Property<Value> {
        published(property) {
            publication.projection({ project($0.current.contents.snapshot) }) { change in
                change.isDerivedOnly || isSame(change.previous.contents.snapshot, change.current.contents.snapshot)
                    ? nil : project(change.current.contents.snapshot)
            }
        }
    }

    /// The property in `property`, holding `project` of the current snapshot, changing only with
    /// publications for which `changes` holds (for values that cannot be compared).
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        changingWhen changes: @escaping @Sendable (Publication) -> Bool
    ) -> Property<Value> {
        published(property) {
            publication.projection({ project($0.current.contents.snapshot) }) { change in
                !change.isDerivedOnly && changes(change.current) ? project(change.current.contents.snapshot) : nil
            }
        }
    }

    /// The property holding the loaded items, changing with every publication whose items are not the
    /// same storage as the previous publication's.
    @inlinable
    var itemsProperty: Property<PagedItems<Item>> {
        published(.items) {
            publication.projection({ $0.current.contents.snapshot.items }) { change in
                change.isDerivedOnly
                    || change.current.contents.snapshot.shows(sameItemsAs: change.previous.contents.snapshot)
                    ? nil : change.current.contents.snapshot.items
            }
        }
    }

    /// The property holding the query of the current generation.
    @inlinable
    var queryProperty: Property<Query> {
        published(.query) {
            publication.projection({ $0.current.contents.query }) { change in
                !change.isDerivedOnly && change.current.contents.changesQuery ? change.current.contents.query : nil
            }
        }
    }

    /// The signal in `property`, of `project` of each published change, for those that project a value.
    ///
    /// - Returns: The signal; it completes when the owner calls ``close()``.
    @inlinable
    func signal<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (PublicationChange<Item, Query, Metadata, Failure>) -> Value?
    ) -> Signal<Value, Never> {
        published(property) { publication.signal.compactMap { $0.isDerivedOnly ? nil : project($0) } }
    }

    /// Completes the published value's signal, and so every property's and signal's, and lets go of every
    /// value made so far; the owner calls it when it is released.
    ///
    /// A property someone still holds keeps reading the engine's latest publication.
    func close() {
        let values = publishedValues.withLock { values in
            defer { values = Array(repeating: nil, count: PublishedProperty.allCases.count) }
            return values
        }
        publicationInput.complete()
        withExtendedLifetime(values) {}
    }
}

/// The values a paginator publishes, one place each in its engine's cache of published values.
@usableFromInline
enum PublishedProperty: Int, CaseIterable {
    case snapshot, state, loadStates, items, pages, total, isEndReached, query, metadata, showsNextPageIndicator
    case presentation, updates, errorsAfterFirstPage, slots, slotUpdates
    /// The `Stapler` facade's total, 0 until a page reports one.
    case totalOrZero
    /// The optimistic edits pending, and the mutations that failed.
    case pendingEdits, mutationErrors
}
