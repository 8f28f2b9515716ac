import Reactive
import TestSupport
import Testing

/// Binds `label` to a temporary derived property that nobody keeps, and returns a weak reference to it.
private func bindToTemporary(
    _ label: MutableProperty<String>, _ make: () -> Property<String>
) -> WeakReference {
    let temporary = make()
    label <~ temporary
    return WeakReference(temporary)
}

@Suite("Derived properties live while observed")
struct PropertyBindingLifetimeTests {
    @Test(
        "R21: a binding to a temporary derived property keeps it alive until the target is released",
        arguments: ["map", "combineLatest", "skipRepeats"])
    func R21_bindingToTemporary(kind: String) {
        let count = MutableProperty(1)
        let offset = MutableProperty(0)
        let transforms = Locked(0)
        var label: MutableProperty<String>? = MutableProperty("")
        let temporary = bindToTemporary(label!) {
            switch kind {
            case "map":
                Property(count).map { value in
                    transforms.increment(by: 1)
                    return "\(value)"
                }
            case "combineLatest":
                Property(count).combineLatest(with: Property(offset)).map { value, offset in
                    transforms.increment(by: 1)
                    return "\(value + offset)"
                }
            default:
                Property(count).map { value in
                    transforms.increment(by: 1)
                    return "\(value)"
                }.skipRepeats()
            }
        }
        #expect(label?.value == "1")
        count.value = 2
        #expect(label?.value == "2")
        count.value = 3
        #expect(label?.value == "3")
        #expect(!temporary.isFreed)
        label = nil
        #expect(temporary.isFreed)
        let before = transforms.value
        count.value = 4
        #expect(transforms.value == before)
    }

    @Test("R21: a producer or a signal taken from a temporary derived property keeps delivering")
    func R21_producerAndSignalOfTemporary() {
        let count = MutableProperty(1)
        let fromProducer = Locked<[Int]>([])
        let fromSignal = Locked<[Int]>([])
        let run = Property(count).map { $0 }.producer.startWithValues { fromProducer.append($0) }
        let observation = Property(count).map { $0 * 10 }.signal.observeValues { fromSignal.append($0) }
        count.value = 5
        #expect(fromProducer.value == [1, 5])
        #expect(fromSignal.value == [50])
        run.dispose()
        observation.dispose()
        count.value = 6
        #expect(fromProducer.value == [1, 5])
        #expect(fromSignal.value == [50])
    }

    @Test("R21: a derivation is freed when its observation ends, and its sources lose their observer")
    func R21_freedWhenObservationEnds() {
        let tracker = LifetimeTracker()
        let count = MutableProperty(1)
        let leaks = LeakCheck()
        let observation: any Disposable = {
            let token = tracker.instance()
            let derived = Property(count).map { value in withExtendedLifetime(token) { value } }
            leaks.track(derived.signal, "derived signal")
            return derived.signal.observeValues { _ in }
        }()
        count.value = 2
        #expect(tracker.live == 1)
        observation.dispose()
        #expect(tracker.live == 0)
        #expect(leaks.survivors == [])
    }

    @Test("R21: 4 writer threads while 1,000 bindings to temporaries are made and released (barrier)")
    func R21_bindingsUnderConcurrentWritersStress() {
        let count = MutableProperty(0)
        let stop = Flag()
        let references = Locked<[WeakReference]>([])
        let kept = Locked<[MutableProperty<String>]>([])
        raceFromBarrier(threads: 5) { thread in
            if thread == 4 {
                for index in 0..<1_000 {
                    let label = MutableProperty("")
                    references.append(bindToTemporary(label) { Property(count).map { "\($0)" } })
                    // Ten stay bound: each write formats a string for every live binding, so keeping a
                    // hundred made this test take a minute in a debug build.
                    if index % 100 == 0 { kept.append(label) }
                }
                stop.set()
            } else {
                // Bounded: writers spinning until the main thread is done could queue more than a million
                // events behind one drainer, which debug builds report as a feedback loop (clause 3.5).
                var value = thread
                for _ in 0..<50_000 where !stop.isSet {
                    value += 4
                    count.value = value
                }
            }
        }
        count.value = -1
        #expect(kept.value.allSatisfy { $0.value == "-1" })
        kept.value = []
        #expect(references.value.allSatisfy { $0.isFreed })
    }
}
