/// Counts live instances of `Tracked`, so a test can prove that everything it made was freed.
public final class LifetimeTracker: @unchecked Sendable {
    // Guarded by `counts`' lock.
    private let counts = Locked((created: 0, freed: 0))

    public init() {}

    public var live: Int { counts.withLock { $0.created - $0.freed } }

    public var created: Int { counts.withLock { $0.created } }

    /// A new tracked object; the tracker counts it until it is freed.
    public func instance() -> Tracked {
        counts.withLock { $0.created += 1 }
        return Tracked(tracker: self)
    }

    fileprivate func didFree() {
        counts.withLock { $0.freed += 1 }
    }

    public final class Tracked: Sendable {
        private let tracker: LifetimeTracker

        fileprivate init(tracker: LifetimeTracker) {
            self.tracker = tracker
        }

        deinit { tracker.didFree() }
    }
}

/// Runs `make` in its own scope and reports whether the object it returned was freed afterwards.
///
/// `make` may start work, observe, and so on; everything it does must be released when the scope ends.
public func isFreed<Object: AnyObject>(after make: () -> Object) -> Bool {
    weak var weakObject: Object?
    do {
        let object = make()
        weakObject = object
    }
    return weakObject == nil
}
