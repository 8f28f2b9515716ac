/// Weak references to objects a test expects to be freed, checked together at the end.
///
/// ```swift
/// let leaks = LeakCheck()
/// do {
///     let property = MutableProperty(0)
///     leaks.track(property, "property")
/// }
/// #expect(leaks.survivors == [])
/// ```
///
/// Safe to use from many threads at once (objects may be tracked by stress racers).
public final class LeakCheck: Sendable {
    private let references = Locked<[(label: String, load: @Sendable () -> AnyObject?)]>([])

    public init() {}

    /// Tracks `object` by a weak reference under `label`.
    public func track(_ object: AnyObject & Sendable, _ label: String) {
        references.append((label, { [weak object] in object }))
    }

    /// The labels of the tracked objects that are still alive, in the order they were tracked.
    public var survivors: [String] {
        references.value.compactMap { $0.load() == nil ? nil : $0.label }
    }

    /// How many objects were tracked.
    public var trackedCount: Int { references.value.count }
}

/// Runs `make` in its own scope and returns the labels of the objects it returned that are still
/// alive afterwards (empty when everything was freed).
///
/// `make` may start work, observe and so on with the objects; everything must be released when its
/// scope ends.
public func survivors(after make: () -> [(AnyObject & Sendable, String)]) -> [String] {
    let leaks = LeakCheck()
    do {
        for (object, label) in make() {
            leaks.track(object, label)
        }
    }
    return leaks.survivors
}
