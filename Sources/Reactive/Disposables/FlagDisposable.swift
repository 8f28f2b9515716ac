import Synchronization

/// A disposable with no cleanup that only records that it was disposed, in one allocation: an atomic
/// flag inside the object (an `AnyDisposable` is two allocations, itself and its lock).
///
/// It is the run disposable of a producer whose events are all known when it starts, such as
/// `SignalProducer(value:)`: the run reads the flag before and after delivering its value. The R6
/// benchmark (one action execution over `SignalProducer(value:)`) is where it pays: one allocation and
/// 709 instructions fewer per execution than an `AnyDisposable` (4,010 against 4,719, callgrind).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class FlagDisposable: Disposable {
    private let flag = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    @usableFromInline
    var isDisposed: Bool { flag.load(ordering: .acquiring) }

    @usableFromInline
    func dispose() { flag.store(true, ordering: .releasing) }
}

/// Makes the disposable of a run that only needs to record its end: a ``FlagDisposable`` where
/// `Synchronization.Atomic` is available (Linux, and Apple systems from macOS 15 / iOS 18), an
/// ``AnyDisposable`` with no cleanup on older Apple systems.
@inlinable
func makeFlagDisposable() -> any Disposable {
    #if canImport(Darwin)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return FlagDisposable()
        }
        return AnyDisposable()
    #else
        return FlagDisposable()
    #endif
}
