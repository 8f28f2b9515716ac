/// A weak reference that never changes once made.
///
/// A closure's `[weak self]` capture is a boxed variable, and each read of it begins and ends a run-time
/// exclusivity access; a closure that captures one of these reads an immutable `weak let` instead. The
/// engine's page receiver, called for every event of every load, holds the engine this way.
@usableFromInline
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    /// The object, or `nil` once it is released.
    @usableFromInline weak let object: Object?

    @inlinable
    init(_ object: Object) {
        self.object = object
    }
}
