import Reactive

extension PagingEngine {
    // MARK: Published values

    /// The published value in `property`, made by `make` on first use.
    ///
    /// `make` runs under the outbox lock: it must make the value from the outbox's published snapshot and
    /// register its stager, and call no user code.
    @inlinable
    func published<Value: AnyObject>(_ property: PublishedProperty, make: (inout Outbox) -> Value) -> Value {
        outbox.withLock { box in
            if let made = box.values[property.rawValue] { return unsafeDowncast(made, to: Value.self) }
            let made = make(&box)
            box.values[property.rawValue] = made
            return made
        }
    }

    /// The property in `property`, holding `project` of each published snapshot.
    ///
    /// - Parameters:
    ///   - property: Which published property it is, and where it is kept.
    ///   - project: Pure; runs under the outbox lock for every publication.
    ///   - isEquivalent: When given, a publication that projects an equivalent value notifies nobody. It
    ///     must be an equivalence relation (each value is compared with the previous publication's).
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skipping isEquivalent: (@Sendable (Value, Value) -> Bool)? = nil
    ) -> Property<Value> {
        published(property) { box in
            let (property, writer) = PropertyWriter.make(project(box.published.snapshot))
            if let isEquivalent {
                box.stagers.append { publication, previous in
                    let value = project(publication.pointee.snapshot)
                    return isEquivalent(project(previous.pointee.snapshot), value) ? nil : writer.stage(value)
                }
            } else {
                box.stagers.append { publication, _ in writer.stage(project(publication.pointee.snapshot)) }
            }
            return property
        }
    }

    /// The property in `property`, holding `project` of each published snapshot, notifying nobody for a
    /// publication whose snapshot `isSame` as the one before (an equivalence relation, pure).
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skippingSnapshots isSame: @escaping @Sendable (Snapshot, Snapshot) -> Bool
    ) -> Property<Value> {
        published(property) { box in
            let (property, writer) = PropertyWriter.make(project(box.published.snapshot))
            box.stagers.append { publication, previous in
                isSame(previous.pointee.snapshot, publication.pointee.snapshot)
                    ? nil : writer.stage(project(publication.pointee.snapshot))
            }
            return property
        }
    }

    /// The property in `property`, holding `project` of each snapshot, changing only with publications for
    /// which `changes` holds (for values that cannot be compared).
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ property: PublishedProperty,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        changingWhen changes: @escaping @Sendable (Publication) -> Bool
    ) -> Property<Value> {
        published(property) { box in
            let (property, writer) = PropertyWriter.make(project(box.published.snapshot))
            box.stagers.append { publication, _ in
                changes(publication.pointee) ? writer.stage(project(publication.pointee.snapshot)) : nil
            }
            return property
        }
    }

    /// The property holding the loaded items, changing with every publication whose items are not the
    /// same storage as the previous publication's.
    ///
    /// The items change with most publications that matter, so this stager compares and projects them
    /// inline: through the generic ``property(_:_:skippingSnapshots:)`` each publication would pay two
    /// closure calls, each handed its own bitwise copy of both snapshots.
    @inlinable
    var itemsProperty: Property<PagedItems<Item>> {
        published(.items) { box in
            let (property, writer) = PropertyWriter.make(box.published.snapshot.items)
            box.stagers.append { publication, previous in
                publication.pointee.snapshot.shows(sameItemsAs: previous.pointee.snapshot)
                    ? nil : writer.stage(publication.pointee.snapshot.items)
            }
            return property
        }
    }

    /// The property holding the query of the current generation.
    @inlinable
    var queryProperty: Property<Query> {
        published(.query) { box in
            let (property, writer) = PropertyWriter.make(box.published.query)
            box.stagers.append { publication, _ in
                publication.pointee.changesQuery ? writer.stage(publication.pointee.query) : nil
            }
            return property
        }
    }

    /// The signal in `property`, of `project` of each publication, for those that project a value.
    ///
    /// - Returns: The signal; it completes when the owner calls ``close()``.
    @inlinable
    func signal<Value: Sendable>(
        _ property: PublishedProperty, _ project: @escaping @Sendable (Publication) -> Value?
    ) -> Signal<Value, Never> {
        published(property) { box in
            let (signal, writer) = SignalWriter<Value>.make()
            box.stagers.append { publication, _ in
                project(publication.pointee).flatMap { writer.stage($0) }
            }
            box.completions.append { writer.complete() }
            return signal
        }
    }

    /// Completes every signal made by ``signal(_:_:)`` and lets go of every value made so far; the owner
    /// calls it when it is released.
    ///
    /// A property someone still holds keeps changing with the engine (the stagers hold its storage), as it
    /// did while the owner lived; one nobody holds is released, which completes its signal.
    func close() {
        let (values, completions) = outbox.withLock { box in
            defer {
                box.values = Array(repeating: nil, count: PublishedProperty.allCases.count)
                box.completions = []
            }
            return (box.values, box.completions)
        }
        for complete in completions { complete() }
        withExtendedLifetime(values) {}
    }

}

/// The values a paginator publishes, one place each in its engine's outbox.
@usableFromInline
enum PublishedProperty: Int, CaseIterable {
    case snapshot, state, loadStates, items, pages, total, isEndReached, query, metadata, showsNextPageIndicator
    case presentation, updates, errorsAfterFirstPage, slots, slotUpdates
    /// The `Stapler` facade's total, 0 until a page reports one.
    case totalOrZero
}
