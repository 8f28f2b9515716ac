/// A disposable that disposes a set of other disposables together.
///
/// Disposing the composite disposes every member exactly once, in the order they were added, outside
/// its lock. A disposable added after the composite was disposed is disposed at once.
///
/// ```swift
/// let bag = CompositeDisposable()
/// bag += signal.observeValues { print($0) }
/// bag += producer.start()
/// bag.dispose()  // both end
/// ```
public final class CompositeDisposable: Disposable {
    // Guarded by its own lock: the members while active (`nil` once disposed), and the next token.
    private let state: LockedState<(members: [Member]?, nextToken: UInt64)>

    private struct Member {
        let token: UInt64
        let disposable: any Disposable
    }

    /// Creates an empty composite.
    public init() {
        state = LockedState((members: [], nextToken: 0))
    }

    /// Creates a composite holding `disposables`.
    public init(_ disposables: [any Disposable]) {
        let members = disposables.enumerated().map { Member(token: UInt64($0.offset), disposable: $0.element) }
        state = LockedState((members: members, nextToken: UInt64(disposables.count)))
    }

    /// Whether the composite has been disposed.
    public var isDisposed: Bool { state.withLock { $0.members == nil } }

    /// Adds `disposable`, or disposes it at once if the composite is already disposed.
    ///
    /// - Returns: A handle whose disposal removes `disposable` from the composite without disposing
    ///   it, or `nil` if `disposable` was `nil` or already disposed of here.
    /// - Complexity: O(1) amortised to add; removing through the handle is O(members).
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard let disposable, let token = insert(disposable) else { return nil }
        return MemberHandle(composite: self, token: token)
    }

    /// Adds a cleanup closure, run when the composite is disposed (at once if it already is).
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        add(AnyDisposable(action))
    }

    /// Adds `disposable` without making a removal handle, or disposes it at once if the composite is
    /// already disposed.
    ///
    /// - Returns: The member's token, or `nil` if it was disposed at once.
    @usableFromInline
    @discardableResult
    func insert(_ disposable: any Disposable) -> UInt64? {
        let token: UInt64? = state.withLock { state in
            guard state.members != nil else { return nil }
            let token = state.nextToken
            state.nextToken &+= 1
            state.members!.append(Member(token: token, disposable: disposable))
            return token
        }
        if token == nil {
            disposable.dispose()
        }
        return token
    }

    /// Removes the member with `token` without disposing it.
    fileprivate func remove(_ token: UInt64) {
        // The member is released after unlocking: its deinit may be user code.
        let removed: Member? = state.withLock { state in
            guard let index = state.members?.firstIndex(where: { $0.token == token }) else { return nil }
            return state.members!.remove(at: index)
        }
        withExtendedLifetime(removed) {}
    }

    /// Whether the member with `token` is still here.
    fileprivate func contains(_ token: UInt64) -> Bool {
        state.withLock { state in state.members?.contains { $0.token == token } ?? false }
    }

    /// Disposes every member once, in the order they were added.
    public func dispose() {
        let taken = state.withLock { state in
            defer { state.members = nil }
            return state.members
        }
        for member in taken ?? [] {
            member.disposable.dispose()
        }
    }

    /// Adds `disposable` to `composite`; see `add(_:)-(Disposable?)`.
    public static func += (composite: CompositeDisposable, disposable: (any Disposable)?) {
        if let disposable {
            composite.insert(disposable)
        }
    }

    /// Adds a cleanup closure to `composite`; see `add(_:)-(()->Void)`.
    public static func += (composite: CompositeDisposable, action: @escaping @Sendable () -> Void) {
        composite.insert(AnyDisposable(action))
    }
}

/// The handle `CompositeDisposable.add(_:)` returns, which removes one member without disposing it.
///
/// It reports disposed once that member is no longer in the composite (removed, or the composite was
/// disposed or freed).
private final class MemberHandle: Disposable {
    private weak let composite: CompositeDisposable?
    private let token: UInt64

    init(composite: CompositeDisposable, token: UInt64) {
        self.composite = composite
        self.token = token
    }

    var isDisposed: Bool {
        !(composite?.contains(token) ?? false)
    }

    func dispose() {
        composite?.remove(token)
    }
}
