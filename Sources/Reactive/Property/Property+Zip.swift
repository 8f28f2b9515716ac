extension Property {
    /// A property that pairs this property's value with `other`'s: first the two current values, then
    /// the `n`th change of one with the `n`th change of the other.
    ///
    /// The faster side's changes wait, in order, until the other side changes. The result completes once
    /// a side that completed has no change left waiting.
    ///
    /// ```swift
    /// let pairs = Property(request).zip(with: Property(response))  // each request with its response
    /// ```
    ///
    /// - Parameter other: The property to pair with.
    /// - Returns: The zipped property.
    /// - Complexity: Memory grows with the number of changes of one side not yet matched by the other.
    public func zip<Other: Sendable>(with other: Property<Other>) -> Property<(Value, Other)> {
        let storage = PropertyStorage((value, other.value))
        // Guarded by its lock: the changes of each side not yet paired, and which sides completed.
        let state = LockedState(PropertyZipState<Value, Other>())
        let feed = CompositeDisposable()
        feed += self.signal.observe(
            Signal<Value, Never>.Observer(
                value: { first in
                    let (pair, isDone) = state.withLock { $0.receive(first: first) }
                    if let pair { storage.set(pair) }
                    if isDone { storage.complete() }
                },
                completed: { if state.withLock({ $0.complete(first: true) }) { storage.complete() } },
                interrupted: { if state.withLock({ $0.complete(first: true) }) { storage.complete() } }
            ))
        feed += other.signal.observe(
            Signal<Other, Never>.Observer(
                value: { second in
                    let (pair, isDone) = state.withLock { $0.receive(second: second) }
                    if let pair { storage.set(pair) }
                    if isDone { storage.complete() }
                },
                completed: { if state.withLock({ $0.complete(first: false) }) { storage.complete() } },
                interrupted: { if state.withLock({ $0.complete(first: false) }) { storage.complete() } }
            ))
        return Property<(Value, Other)>(derived: storage, sources: [self, other], feed: feed)
    }
}

/// The changes `Property.zip(with:)` has yet to pair, and which sides have completed.
private struct PropertyZipState<First, Second> {
    var firsts = FIFOQueue<First>()
    var seconds = FIFOQueue<Second>()
    var isFirstCompleted = false
    var isSecondCompleted = false
    var isDone = false

    /// Queues a change of the first side; returns the pair it completes, if any, and whether the zip is
    /// then done.
    mutating func receive(first: First) -> (pair: (First, Second)?, isDone: Bool) {
        guard !isDone else { return (nil, false) }
        guard let second = seconds.popFirst() else {
            firsts.append(first)
            return (nil, false)
        }
        return ((first, second), checkDone())
    }

    /// Queues a change of the second side; returns the pair it completes, if any, and whether the zip is
    /// then done.
    mutating func receive(second: Second) -> (pair: (First, Second)?, isDone: Bool) {
        guard !isDone else { return (nil, false) }
        guard let first = firsts.popFirst() else {
            seconds.append(second)
            return (nil, false)
        }
        return ((first, second), checkDone())
    }

    /// Records a side's completion; returns whether the zip is now done.
    mutating func complete(first: Bool) -> Bool {
        if first { isFirstCompleted = true } else { isSecondCompleted = true }
        return checkDone()
    }

    /// Marks the zip done, once, when a completed side has nothing waiting: no further pair can form.
    private mutating func checkDone() -> Bool {
        guard !isDone, (isFirstCompleted && firsts.isEmpty) || (isSecondCompleted && seconds.isEmpty) else {
            return false
        }
        isDone = true
        return true
    }
}
