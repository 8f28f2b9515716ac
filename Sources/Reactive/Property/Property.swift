/// A read-only view of a value that changes over time.
///
/// A `Property` is either a view of a ``MutableProperty`` (it shares its value and notifications), a
/// constant, a property fed by a signal or a producer (`init(initial:then:)`), or derived from other
/// properties (`map(_:)`, `combineLatest(with:)`, `skipRepeats(_:)`). Libraries built on this package
/// may also make a projection of another property, which stores nothing of its own. A derived property's value always
/// equals the derivation of its sources' values once every notification has been delivered, and its
/// observers never see a value older than one they have already seen.
///
/// A fed or derived property keeps its sources alive, and so does anything observing it: its
/// ``signal`` while observed, a run of its ``producer``, and a binding from it. So a temporary works:
/// `label <~ Property(count).map { "\($0)" }` updates `label` for as long as `label` lives. The
/// derivation is freed when the property is released and nothing observes it any more, or when its
/// sources complete (it then completes too).
///
/// ```swift
/// let count = MutableProperty(1)
/// let label = Property(count).map { "\($0) items" }
/// label.value  // "1 items"
/// ```
public final class Property<Value: Sendable>: Sendable {
    /// Where the value lives.
    @usableFromInline let backing: Backing

    /// The changes of the property, not including the value it had when observed.
    ///
    /// For a fed or derived property, it completes when the sources do, and observing it keeps the
    /// derivation alive.
    public let signal: Signal<Value, Never>

    private let kind: Kind

    /// Where a property's value lives: in a storage (its own, or the mutable property's it views), or in
    /// another property, read through a projection.
    @usableFromInline
    enum Backing: Sendable {
        case stored(PropertyStorage<Value>)
        case projected(PropertyProjection<Value>)
    }

    /// What a property does with its storage and its sources.
    private enum Kind {
        /// A view of a `MutableProperty`, which it keeps alive; the mutable property completes the
        /// storage when it is released.
        case view(MutableProperty<Value>)
        /// The property owns its storage and completes it when it is released (constants, `Action`'s
        /// `isExecuting`, the properties of a `PropertyGroup`).
        case owner
        /// Fed by sources: the feed and the sources hang from the storage signal's lifetime, which ends
        /// when the storage completes, or when nothing can observe it any more (the property and its
        /// signal are released and the last observer left).
        case derived
        /// A projection of another property: the projection keeps the source alive, and the signal is
        /// derived from the source's.
        case projection

        /// Whether a run of the producer must keep the property alive: a derived property's sources and
        /// a projection's source hang from it.
        var isKeptAliveByRuns: Bool {
            switch self {
            case .derived, .projection: true
            case .view, .owner: false
            }
        }
    }

    /// Creates a read-only view of `property`, sharing its value and its notifications.
    ///
    /// Releasing the view does not affect `property`.
    public init(_ property: MutableProperty<Value>) {
        backing = .stored(property.storage)
        signal = property.signal
        kind = .view(property)
    }

    /// Creates a property that always holds `value`.
    ///
    /// Its ``producer`` sends `value` then completes; its ``signal`` has completed.
    public init(value: Value) {
        let storage = PropertyStorage(value)
        backing = .stored(storage)
        signal = Signal(core: storage.core)
        kind = .owner
        storage.complete()
    }

    /// Creates a property that starts as `initial` and then holds each value `values` sends.
    ///
    /// When `values` completes or is interrupted, the property keeps its last value and its ``signal``
    /// and ``producer`` complete (an interruption completes them too); a later ``producer`` sends the
    /// last value, then completes.
    ///
    /// - Parameters:
    ///   - initial: The value until `values` sends one.
    ///   - values: Observed until it terminates, or until the property is released and nothing observes
    ///     it any more.
    public convenience init(initial: Value, then values: Signal<Value, Never>) {
        let storage = PropertyStorage(initial)
        let feed = values.observe(storage.feedObserver { $0 })
        self.init(derived: storage, sources: [values], feed: feed)
    }

    /// Creates a property that starts as `initial`, then starts `values` and holds each value it sends.
    ///
    /// When the run completes or is interrupted, the property keeps its last value and completes, as
    /// for `init(initial:then:)-(_,Signal<Value,Never>)`. The run is interrupted when the property is
    /// released and nothing observes it any more.
    ///
    /// ```swift
    /// let total = Property(initial: 0, then: SignalProducer(values: [1, 2]))
    /// total.value  // 2, and total.producer sends 2, then completes
    /// ```
    public convenience init(initial: Value, then values: SignalProducer<Value, Never>) {
        let storage = PropertyStorage(initial)
        let feed = values.start(storage.feedObserver { $0 })
        self.init(derived: storage, sources: [], feed: feed)
    }

    /// Makes a property that owns `storage` and completes it when released.
    init(owning storage: PropertyStorage<Value>) {
        self.backing = .stored(storage)
        self.signal = Signal(core: storage.core)
        self.kind = .owner
    }

    /// Makes a property fed by `feed` from `sources`: both are released when the storage completes or
    /// when nothing can observe it any more.
    init(derived storage: PropertyStorage<Value>, sources: [any Sendable], feed: any Disposable) {
        self.backing = .stored(storage)
        self.signal = Signal(core: storage.core)
        self.kind = .derived
        let lifetime = storage.core.lifetime
        lifetime += feed
        lifetime += { withExtendedLifetime(sources) {} }
    }

    /// Makes a property reading its value through `projection`, with `signal` as its changes.
    @usableFromInline
    init(projecting projection: PropertyProjection<Value>, signal: Signal<Value, Never>) {
        self.backing = .projected(projection)
        self.signal = signal
        self.kind = .projection
    }

    /// The current value.
    @inlinable
    public var value: Value {
        switch backing {
        case .stored(let storage): storage.value
        case .projected(let projection): projection.read()
        }
    }

    /// Attaches `observer` and sends it the current value first, atomically with the attachment; see
    /// ``producer``.
    @usableFromInline
    func observeCurrentAndChanges(_ observer: Signal<Value, Never>.Observer) -> any Disposable {
        switch backing {
        case .stored(let storage): storage.observeCurrentAndChanges(observer)
        case .projected(let projection): projection.observeCurrentAndChanges(observer)
        }
    }

    /// The current value, then every change, with no gap and no duplicate.
    ///
    /// For a fed or derived property, a run keeps the property (and so its sources) alive until the run
    /// ends, and ends with a completion when the sources complete.
    public var producer: SignalProducer<Value, Never> {
        // A view or an owner's property needs nothing kept alive by a run: its storage is enough.
        if case .stored(let storage) = backing, !kind.isKeptAliveByRuns {
            return storage.producer
        }
        return SignalProducer { [self] observer, lifetime in
            lifetime += observeCurrentAndChanges(observer)
            lifetime += { withExtendedLifetime(self) {} }
        }
    }

    deinit {
        if case .owner = kind, case .stored(let storage) = backing {
            storage.complete()
        }
    }
}

extension PropertyStorage {
    /// An observer that feeds this storage with `transform` of each value, and completes it when the
    /// source completes or is interrupted.
    func feedObserver<Source>(
        _ transform: @escaping @Sendable (Source) -> Value
    ) -> Signal<Source, Never>.Observer {
        Signal<Source, Never>.Observer(
            value: { [self] in set(transform($0)) },
            completed: { [self] in complete() },
            interrupted: { [self] in complete() }
        )
    }
}
