import Dispatch
import Reactive
import TestSupport
import Testing

@Suite("Property values as an AsyncSequence")
struct PropertyValuesTests {
    @Test("yields the current value, then every change")
    func currentThenChanges() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        property.value = 2
        property.modify { $0 += 1 }
        var readOnly = Property(property).values.makeAsyncIterator()
        property.value = 4
        var received: [Int?] = []
        for _ in 0..<4 { received.append(await iterator.next()) }
        #expect(received == [1, 2, 3, 4])
        #expect(await readOnly.next() == 3)
        #expect(await readOnly.next() == 4)
    }

    @Test("a derived property's values follow its source")
    func derivedProperty() async {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        var iterator = doubled.values.makeAsyncIterator()
        source.value = 5
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 10)
    }

    @Test("R10: writes from another thread while iterating arrive with no gap and no duplicate")
    func R10_noGapNoDuplicate() async {
        let count = stressRounds(20_000)
        for attachEarly in [true, false] {
            let property = MutableProperty(0)
            let attached = Locked(false)
            let reading = Task {
                if !attachEarly {
                    while property.value < 100 { await Task.yield() }
                }
                var iterator = property.values.makeAsyncIterator()
                attached.value = true
                var received: [Int] = []
                while let value = await iterator.next() {
                    received.append(value)
                    if value == count { break }
                    if value % 5 == 0 { await Task.yield() }
                }
                return received
            }
            if attachEarly { #expect(await eventuallyPolling { attached.value }) }
            let written = Locked(false)
            DispatchQueue.global().async {
                for value in 1...count { property.value = value }
                written.value = true
            }
            let received = await value(of: reading) ?? []
            #expect(await eventuallyPolling { written.value })
            let first = received.first ?? -1
            let gapFree = received == Array(first...count)
            #expect(gapFree, "attached early: \(attachEarly), \(received.count) values from \(first)")
            if attachEarly { #expect(first == 0) }
        }
    }

    @Test("the sequence does not keep the property alive, and ends when it is released")
    func endsWhenReleased() async {
        weak var weakProperty: MutableProperty<Int>?
        var iterator: AsyncValues<Int, Never>.Iterator
        do {
            let property = MutableProperty(7)
            weakProperty = property
            iterator = property.values.makeAsyncIterator()
            property.value = 8
        }
        #expect(weakProperty == nil)
        #expect(await iterator.next() == 7)
        #expect(await iterator.next() == 8)
        #expect(await iterator.next() == nil)
    }

    @Test("releasing a read-only view of a MutableProperty does not end the mutable property's changes")
    func viewReleaseDoesNotComplete() async {
        let property = MutableProperty(0)
        let recorder = property.signal.record()
        var iterator = property.values.makeAsyncIterator()
        do { _ = Property(property) }
        property.value = 1
        #expect(recorder.events == [.value(1)])
        #expect(await iterator.next() == 0)
        #expect(await iterator.next() == 1)
    }

    @Test("bufferingNewest(1) reads only the latest value")
    func latestOnly() async {
        let property = MutableProperty(0)
        var iterator = property.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        for value in 1...5 { property.value = value }
        #expect(await iterator.next() == 5)
        var readOnly = Property(property).values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        property.value = 6
        #expect(await readOnly.next() == 6)
    }

    @Test("R8: a property and its observation are freed after a loop breaks or its task is cancelled")
    func R8_freed() async {
        let released = Locked<[WeakReference]>([])
        do {
            let property = MutableProperty(0)
            released.append(WeakReference(property))
            for await value in property.values where value == 0 { break }
            let derived = property.map { $0 + 1 }
            released.append(WeakReference(derived))
            let consumer = Task { for await _ in derived.values {} }
            property.value = 1
            consumer.cancel()
            #expect(await value(of: consumer) != nil)
        }
        #expect(await eventuallyPolling { released.value.allSatisfy(\.isFreed) })
        #expect(released.value.count == 2)
    }
}
