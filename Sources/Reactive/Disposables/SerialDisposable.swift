/// A disposable that holds at most one inner disposable and disposes it when it is replaced.
///
/// Setting ``inner`` disposes the previous inner disposable. Disposing the serial disposable disposes
/// the current one, and any disposable set afterwards is disposed at once.
public final class SerialDisposable: Disposable {
    // Guarded by its own lock.
    private let state: LockedState<State>

    private struct State {
        var inner: (any Disposable)?
        var isDisposed = false
    }

    /// Creates a serial disposable, optionally holding `inner`.
    public init(_ inner: (any Disposable)? = nil) {
        state = LockedState(State(inner: inner))
    }

    /// Whether the serial disposable has been disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current inner disposable.
    ///
    /// Setting it disposes the one it replaces, outside the lock.
    public var inner: (any Disposable)? {
        get { state.withLock { $0.inner } }
        set {
            let (old, disposeNew) = state.withLock { state -> ((any Disposable)?, Bool) in
                guard !state.isDisposed else { return (nil, true) }
                defer { state.inner = newValue }
                return (state.inner, false)
            }
            old?.dispose()
            if disposeNew { newValue?.dispose() }
        }
    }

    /// Disposes the inner disposable and every later one.
    public func dispose() {
        let old = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.inner = nil }
            return state.inner
        }
        old?.dispose()
    }
}

/// A disposable that disposes its inner disposable when it is released.
///
/// Keep one as a stored property to tie work to the owner's lifetime.
public final class ScopedDisposable<Inner: Disposable>: Disposable {
    /// The disposable that is disposed with this one.
    public let inner: Inner

    /// Wraps `inner`, which is disposed when this object is released or disposed.
    public init(_ inner: Inner) {
        self.inner = inner
    }

    /// Whether the inner disposable is disposed.
    public var isDisposed: Bool { inner.isDisposed }

    /// Disposes the inner disposable.
    public func dispose() { inner.dispose() }

    deinit { inner.dispose() }
}
