/// How a projected property reads its value and follows its changes: through the property it projects,
/// with no storage, lock or queue of its own.
///
/// Its value is always the projection of the source's current value, so every projection of one source
/// agrees with every other at every moment: while an observer of the source (or of any projection) is
/// notified of a value, each projection reads that value's projection.
@usableFromInline
final class PropertyProjection<Value: Sendable>: Sendable {
    /// Reads the projection of the source's current value.
    @usableFromInline let read: @Sendable () -> Value
    /// Attaches an observer to the source, sending it the projection of the current value first.
    @usableFromInline let attach: @Sendable (Signal<Value, Never>.Observer) -> any Disposable

    @usableFromInline
    init(
        read: @escaping @Sendable () -> Value,
        attach: @escaping @Sendable (Signal<Value, Never>.Observer) -> any Disposable
    ) {
        self.read = read
        self.attach = attach
    }

    /// Attaches `observer`: the projection of the source's current value, then each change the projection
    /// passes on, with no gap and no duplicate.
    @usableFromInline
    func observeCurrentAndChanges(_ observer: Signal<Value, Never>.Observer) -> any Disposable {
        attach(observer)
    }
}

extension Property {
    /// A property that holds `project` of this property's value without storing it, and changes with the
    /// values for which `changes` returns a value: for libraries that publish many values as one.
    ///
    /// A library that keeps one value of many fields (a snapshot) in one property and publishes each field
    /// as a projection pays one store and one delivery per change, however many fields it publishes, and
    /// an observer of one field that reads another always reads the same change's value.
    ///
    /// - Parameters:
    ///   - project: The projection of a value; pure.
    ///   - changes: The projection to send for a change of this property, or `nil` to notify nobody (a
    ///     skip rule: the change does not change the projection); pure. Runs inline in this property's
    ///     deliveries, once per change, however many observers the projection has.
    /// - Returns: The projection. It keeps this property alive, and its signal completes when this
    ///   property's does.
    @inlinable
    package func projection<Projected: Sendable>(
        _ project: @escaping @Sendable (Value) -> Projected,
        changes: @escaping @Sendable (Value) -> Projected?
    ) -> Property<Projected> {
        let read: @Sendable () -> Projected = { [self] in project(value) }
        let attach: @Sendable (Signal<Projected, Never>.Observer) -> any Disposable = { [self] observer in
            // The first value an observer attached with its current value receives is that current value:
            // it is projected whole; each later one goes through the skip rule. The deliveries to one
            // observer never overlap, and the lock only makes that visible to the checker.
            let isFirst = LockedState(true)
            return observeCurrentAndChanges(
                Signal<Value, Never>.Observer(
                    value: { value in
                        let first = isFirst.withLock { isFirst in
                            defer { isFirst = false }
                            return isFirst
                        }
                        if first {
                            observer.send(value: project(value))
                        } else if let projected = changes(value) {
                            observer.send(value: projected)
                        }
                    },
                    completed: { observer.sendCompleted() },
                    interrupted: { observer.sendInterrupted() }
                ))
        }
        return Property<Projected>(
            projecting: PropertyProjection(read: read, attach: attach), signal: signal.compactMap(changes))
    }
}
