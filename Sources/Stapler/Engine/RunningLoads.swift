import Reactive

/// The load of each direction that an engine started: its ticket and, once its start returned, its
/// disposable.
@usableFromInline
struct RunningLoads {
    @usableFromInline typealias Entry = (ticket: UInt64, disposable: (any Disposable)?, timer: (any Disposable)?)
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
