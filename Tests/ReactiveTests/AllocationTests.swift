import MallocCounter
import Reactive
import TestSupport
import Testing

/// Counts the heap allocations `body` makes on the calling thread.
private func allocations(_ body: () -> Void) -> Int64 {
    stapler_malloc_counter_start()
    body()
    return stapler_malloc_counter_stop()
}

@Suite("Cost: allocations on the delivery path")
struct AllocationTests {
    static let counterAvailable = stapler_malloc_counter_is_available()

    @Test("the allocation counter sees an allocation (control)", .enabled(if: counterAvailable))
    func counterSeesAllocations() {
        final class Token: Sendable {
            let index: Int
            init(_ index: Int) { self.index = index }
        }
        // The tokens escape into the sink, so not even an optimised build can keep them on the stack.
        let sink = Unsynchronized<[Token]>([])
        sink.value.reserveCapacity(100)
        let counted = allocations {
            for index in 0..<100 { sink.value.append(Token(index)) }
        }
        #expect(counted >= 100)
        #expect(sink.value.map(\.index) == Array(0..<100))
    }

    @Test("delivering a value to one observer allocates nothing", .enabled(if: counterAvailable))
    func signalDeliveryAllocatesNothing() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let sum = Unboxed()
        let observation = signal.observeValues { sum.add($0) }
        for value in 0..<100 { input.send(value: value) }  // warm-up: metadata, caches
        let counted = allocations {
            for value in 0..<10_000 { input.send(value: value) }
        }
        #expect(counted == 0)
        #expect(sum.total == (0..<100).reduce(0, +) + (0..<10_000).reduce(0, +))
        observation.dispose()
    }

    @Test("a value an observer sends into its own signal is queued without allocating", .enabled(if: counterAvailable))
    func reentrantSendAllocatesNothing() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let sum = Unboxed()
        // Each even value queues its odd successor from inside the callout (the FIFO path).
        let observation = signal.observeValues { value in
            sum.add(value)
            if value % 2 == 0 { input.send(value: value + 1) }
        }
        for value in stride(from: 0, to: 200, by: 2) { input.send(value: value) }
        let counted = allocations {
            for value in stride(from: 0, to: 20_000, by: 2) { input.send(value: value) }
        }
        #expect(counted == 0)
        #expect(sum.total == (0..<200).reduce(0, +) + (0..<20_000).reduce(0, +))
        observation.dispose()
    }

    @Test("setting a MutableProperty with one observer allocates nothing", .enabled(if: counterAvailable))
    func propertySetAllocatesNothing() {
        let property = MutableProperty(0)
        let sum = Unboxed()
        let observation = property.signal.observeValues { sum.add($0) }
        for value in 0..<100 { property.value = value }
        let counted = allocations {
            for value in 0..<10_000 { property.value = value }
        }
        #expect(counted == 0)
        #expect(sum.total == (0..<100).reduce(0, +) + (0..<10_000).reduce(0, +))
        #expect(property.value == 9_999)
        observation.dispose()
    }
}

/// A sum the observer adds to without allocating; only the test thread touches it.
private final class Unboxed: @unchecked Sendable {
    // Guarded by the signal's serialised delivery (one sending thread in these tests).
    private(set) var total = 0

    func add(_ value: Int) { total &+= value }
}
