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
        guard let disposable else { return nil }
        let token: UInt64? = state.withLock { state in
            guard state.members != nil else { return nil }
            let token = state.nextToken
            state.nextToken &+= 1
            state.members!.append(Member(token: token, disposable: disposable))
            return token
        }
        guard let token else {
            disposable.dispose()
            return nil
        }
        return AnyDisposable { [weak self] in
            self?.state.withLock { state in
                state.members?.removeAll { $0.token == token }
            }
        }
    }

    /// Adds a cleanup closure, run when the composite is disposed (at once if it already is).
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        add(AnyDisposable(action))
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
        composite.add(disposable)
    }

    /// Adds a cleanup closure to `composite`; see `add(_:)-(()->Void)`.
    public static func += (composite: CompositeDisposable, action: @escaping @Sendable () -> Void) {
        composite.add(action)
    }
}
