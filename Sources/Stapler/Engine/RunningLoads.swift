import Reactive

/// The load of each direction that an engine started: its ticket, its timeout's timer, and once its
/// start returned, its disposable.
@usableFromInline
struct RunningLoads {
    /// A load started: its ticket, its timeout's timer, and once its start returned, its disposable.
    ///
    /// A struct rather than a tuple: the engine destroys a `RunningLoads` after every transition, and a
    /// struct's destroy is compiled code where a tuple's goes through the runtime's generic witness.
    @usableFromInline
    struct Entry {
        @usableFromInline let ticket: UInt64
        @usableFromInline var disposable: (any Disposable)?
        @usableFromInline var timer: (any Disposable)?

        @inlinable
        init(ticket: UInt64) {
            self.ticket = ticket
        }
    }

    @usableFromInline var refresh: Entry?
    @usableFromInline var prepend: Entry?
    @usableFromInline var append: Entry?

    @inlinable
    init() {}

    @inlinable
    subscript(direction: PageDirection) -> Entry? {
        get {
            switch direction {
            case .refresh: refresh
            case .prepend: prepend
            case .append: append
            }
        }
        set {
            switch direction {
            case .refresh: refresh = newValue
            case .prepend: prepend = newValue
            case .append: append = newValue
            }
        }
    }

    /// Disposes every load held, and its timer.
    @inlinable
    func disposeAll() {
        refresh?.timer?.dispose()
        refresh?.disposable?.dispose()
        prepend?.timer?.dispose()
        prepend?.disposable?.dispose()
        append?.timer?.dispose()
        append?.disposable?.dispose()
    }
}
