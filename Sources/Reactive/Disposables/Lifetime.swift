/// The lifetime of an object or a unit of work: something that ends once and tells its observers.
///
/// A producer's start closure receives the lifetime of its run: it ends when the run terminates or is
/// interrupted, and that is where resources are released. `make()` makes a lifetime that ends when
/// its ``Token`` is released, which ties work to an owner:
///
/// ```swift
/// final class ViewModel {
///     let lifetime: Lifetime
///     private let token: Lifetime.Token
///     init() { (lifetime, token) = Lifetime.make() }
/// }
/// ```
///
/// Ending is thread safe and happens exactly once; the end actions run outside every lock.
public final class Lifetime: Sendable {
    @usableFromInline let ender: CompositeDisposable
    /// Whether this is ``never``, which never ends and so keeps no end action.
    private let neverEnds: Bool

    @usableFromInline
    init(ender: CompositeDisposable) {
        self.ender = ender
        self.neverEnds = false
    }

    private init(neverEnding ender: CompositeDisposable) {
        self.ender = ender
        self.neverEnds = true
    }

    /// Creates a lifetime that ends when `composite` is disposed.
    ///
    /// End actions added to the lifetime become members of `composite`.
    ///
    /// - Parameter composite: Its disposal ends the lifetime (at once if it is already disposed).
    public convenience init(_ composite: CompositeDisposable) {
        self.init(ender: composite)
    }

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { ender.isDisposed }

    /// Runs `action` when the lifetime ends, or at once if it has already ended.
    ///
    /// - Returns: A disposable that cancels the registration (the action then never runs), or `nil`
    ///   if the action already ran or the lifetime never ends (``never``, which does not keep it).
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        guard !neverEnds else { return nil }
        return ender.add(action)
    }

    /// Disposes `disposable` when the lifetime ends, or at once if it has already ended.
    ///
    /// - Returns: A disposable that cancels the registration, or `nil` (see `observeEnded(_:)`).
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        guard !neverEnds else { return nil }
        return ender.add(disposable)
    }

    /// Disposes `disposable` when `lifetime` ends; see `add(_:)`.
    public static func += (lifetime: Lifetime, disposable: (any Disposable)?) {
        guard !lifetime.neverEnds, let disposable else { return }
        lifetime.ender.insert(disposable)
    }

    /// Runs `action` when `lifetime` ends; see `observeEnded(_:)`.
    public static func += (lifetime: Lifetime, action: @escaping @Sendable () -> Void) {
        guard !lifetime.neverEnds else { return }
        lifetime.ender.insert(AnyDisposable(action))
    }

    /// Makes a lifetime that ends when the returned token is released (or `Token.dispose()`d).
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let ender = CompositeDisposable()
        return (Lifetime(ender: ender), Token(ender: ender))
    }

    /// A lifetime that has already ended: every action added to it runs at once.
    public static var ended: Lifetime {
        let ender = CompositeDisposable()
        ender.dispose()
        return Lifetime(ender: ender)
    }

    /// A lifetime that never ends: actions added to it never run, and it does not keep them.
    public static let never = Lifetime(neverEnding: CompositeDisposable())

    /// Unavailable: ReactiveSwift's `Lifetime.empty` has already ended, the opposite of a lifetime that
    /// never ends, so the name is not used here.
    ///
    /// Use ``ended`` for a lifetime that has already ended (ReactiveSwift's `empty`), or ``never`` for
    /// one that never ends.
    @available(
        *, unavailable,
        message: "ReactiveSwift's Lifetime.empty has ended: use Lifetime.ended; for one that never ends, Lifetime.never"
    )
    public static var empty: Lifetime { never }

    /// The owner's handle on a lifetime made by `Lifetime.make()`: releasing it ends the lifetime.
    public final class Token: Sendable {
        private let ender: CompositeDisposable

        init(ender: CompositeDisposable) {
            self.ender = ender
        }

        /// Ends the lifetime now, before the token is released.
        public func dispose() {
            ender.dispose()
        }

        deinit {
            ender.dispose()
        }
    }
}
