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

    @usableFromInline
    init(ender: CompositeDisposable) {
        self.ender = ender
    }

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { ender.isDisposed }

    /// Runs `action` when the lifetime ends, or at once if it has already ended.
    ///
    /// - Returns: A disposable that cancels the registration (the action then never runs).
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        ender.add(action)
    }

    /// Disposes `disposable` when the lifetime ends, or at once if it has already ended.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> (any Disposable)? {
        ender.add(disposable)
    }

    /// Disposes `disposable` when `lifetime` ends; see `add(_:)`.
    public static func += (lifetime: Lifetime, disposable: (any Disposable)?) {
        lifetime.add(disposable)
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
