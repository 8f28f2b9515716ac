/// Something that can be cancelled or cleaned up exactly once.
///
/// Every disposable of this module is thread safe and idempotent: `dispose()` may be called any
/// number of times from any thread, and its cleanup runs exactly once, outside every internal lock.
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called (or the work ended by itself).
    var isDisposed: Bool { get }

    /// Cancels the work or releases the resource. Idempotent and thread safe.
    func dispose()
}

/// A disposable that runs a closure the first time it is disposed.
///
/// ```swift
/// let disposable = AnyDisposable { connection.close() }
/// disposable.dispose()  // closes
/// disposable.dispose()  // does nothing
/// ```
public final class AnyDisposable: Disposable {
    // Guarded by its own lock: the cleanup while active, `nil` once disposed.
    private let state: LockedState<State>

    private enum State {
        case active((@Sendable () -> Void)?)
        case disposed
    }

    /// Creates a disposable that runs `action` once, on the first `dispose()`.
    ///
    /// - Parameter action: The cleanup. It runs on the thread that disposes, with no lock held.
    public init(_ action: @escaping @Sendable () -> Void) {
        state = LockedState(.active(action))
    }

    /// Creates a disposable with no cleanup, which only records that it was disposed.
    public init() {
        state = LockedState(.active(nil))
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        state.withLock { state in
            if case .disposed = state { return true }
            return false
        }
    }

    /// Runs the cleanup if this is the first call.
    public func dispose() {
        let cleanup: (@Sendable () -> Void)? = state.withLock { state in
            guard case .active(let action) = state else { return nil }
            state = .disposed
            return action
        }
        cleanup?()
    }
}
