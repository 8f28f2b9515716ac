/// A disposable with no cleanup that only records that it was disposed, in one allocation: an atomic
/// flag inside the object (an `AnyDisposable` is two allocations, itself and its lock).
///
/// It is the run disposable of a producer whose events are all known when it starts, such as
/// `SignalProducer(value:)`: the run reads the flag before and after delivering its value. The R6
/// benchmark (one action execution over `SignalProducer(value:)`) is where it pays: one allocation and
/// 709 instructions fewer per execution than an `AnyDisposable` (4,010 against 4,719, callgrind). Where
/// atomics are missing, the flag is a word behind a lock, a second allocation (see ``AtomicWord``).
@usableFromInline
final class FlagDisposable: Disposable {
    private let flag = AtomicWord()

    @usableFromInline
    init() {}

    @usableFromInline
    var isDisposed: Bool { flag.load() != 0 }

    @usableFromInline
    func dispose() { flag.store(1) }
}
