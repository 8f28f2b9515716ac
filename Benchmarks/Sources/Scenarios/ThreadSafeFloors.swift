import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The floors of a thread-safe send, beside R1's bare closure call: what any signal that serialises
// deliveries from any thread must at least pay per value on this machine, whatever its design.
//
// - "R1-lockFloor": the closure called inside one uncontended `pthread_mutex_t` round trip, the
//   primitive the core's locks are made of (a lock-based send takes at least one to claim delivery).
// - "R1-atomicFloor": the closure called between two compare-and-swaps of one atomic word, the least a
//   lock-free send needs (one to claim delivery, one to give it back while checking that no other
//   thread queued an event meanwhile).
// - "R3-lockFloor": R3's chain (map, filter, map, observer) called inside one such round trip: the least a
//   lock-based signal pays for the chain, and the counterpart of the bare-closure chain that R3's target
//   is set against.

/// The thread-safety floors of R1: one lock round trip, and two compare-and-swaps, around the call.
public func threadSafeFloorScenarios() -> [Scenario] {
    [
        Scenario("R1-lockFloor", size: 10_000_000) { count, meter in
            let sink = Sink()
            let observer: (Int) -> Void = opaque { sink.take($0) }
            withRawMutex { mutex in
                meter.start()
                for value in 0..<count {
                    pthread_mutex_lock(mutex)
                    observer(value)
                    pthread_mutex_unlock(mutex)
                }
                meter.stop()
            }
            check(sink.total == triangle(count), "R1 lock floor delivered \(sink.total)")
        },
        Scenario("R3-lockFloor", size: 5_000_000) { count, meter in
            let sink = Sink()
            let first = opaque(r3First)
            let keeps = opaque(r3Keeps)
            let second = opaque(r3Second)
            let observer: (Int) -> Void = opaque { sink.take($0) }
            withRawMutex { mutex in
                meter.start()
                for value in 0..<count {
                    pthread_mutex_lock(mutex)
                    let mapped = first(value)
                    if keeps(mapped) {
                        observer(second(mapped))
                    }
                    pthread_mutex_unlock(mutex)
                }
                meter.stop()
            }
            check(sink.total == r3Expected(count), "R3 lock floor delivered \(sink.total)")
        },
        Scenario("R1-atomicFloor", size: 10_000_000) { count, meter in
            let sink = Sink()
            let observer: (Int) -> Void = opaque { sink.take($0) }
            let delivering = opaque(AtomicFlag())
            meter.start()
            for value in 0..<count {
                guard delivering.claim() else { continue }
                observer(value)
                delivering.giveBack()
            }
            meter.stop()
            check(sink.total == triangle(count), "R1 atomic floor delivered \(sink.total)")
        },
    ]
}

/// Runs `body` with an initialised `pthread_mutex_t`, destroyed afterwards; the caller locks it itself, so
/// a floor measures the bare calls.
private func withRawMutex(_ body: (UnsafeMutablePointer<pthread_mutex_t>) -> Void) {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    body(mutex)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
}

/// One atomic word that a sender claims before it delivers and gives back after.
private final class AtomicFlag: Sendable {
    private let word = Atomic<Int>(0)

    /// Claims the word: whether it was free.
    @inline(never)
    func claim() -> Bool {
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Gives the word back, as a send does when it finds no event queued meanwhile.
    @inline(never)
    func giveBack() {
        _ = word.compareExchange(expected: 1, desired: 0, ordering: .releasing)
    }
}
