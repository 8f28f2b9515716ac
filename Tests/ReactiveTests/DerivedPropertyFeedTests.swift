import Reactive
import TestSupport
import Testing

/// Derived properties (`map`, `combineLatest`, `skipRepeats`) feed themselves from their source's own
/// delivery, with no producer run in between.
@Suite("Derived property feeds")
struct DerivedPropertyFeedTests {
    @Test("R12: a chain of derived properties is up to date when a later observer of the source is called")
    func R12_chainUpdatedWithinTheSourceDelivery() {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        let paired = doubled.combineLatest(with: source)
        let distinct = paired.map { $0.0 + $0.1 }.skipRepeats()
        let seen = Locked<[String]>([])
        source.signal.observeValues { value in
            seen.append("\(value): \(doubled.value) \(paired.value.0),\(paired.value.1) \(distinct.value)")
        }
        let (changes, _) = distinct.producer.record()
        source.value = 2
        source.value = 2
        source.value = 5
        #expect(seen.value == ["2: 4 4,2 6", "2: 4 4,2 6", "5: 10 10,5 15"])
        // `paired` publishes once per changed input, as ReactiveSwift's does: first with the new `doubled`
        // and the old `source` (5, then 12), then with both new (6, then 15). The repeated 2 changes nothing.
        #expect(changes.values == [3, 5, 6, 12, 15])
    }

    @Test("R8: a derived property stops feeding and releases its transform when it is released")
    func R8_releasedDerivedPropertyStopsFeeding() {
        let tracker = LifetimeTracker()
        let source = MutableProperty(0)
        let calls = Locked(0)
        do {
            let token = tracker.instance()
            let mapped = source.map { value -> Int in
                withExtendedLifetime(token) {}
                calls.increment(by: 1)
                return value
            }
            source.value = 1
            #expect(mapped.value == 1)
        }
        let before = calls.value
        source.value = 2
        #expect(calls.value == before)
        #expect(tracker.live == 0)
    }
}
