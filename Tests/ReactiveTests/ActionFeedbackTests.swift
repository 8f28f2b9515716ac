import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Action state feedback")
struct ActionFeedbackTests {
    @Test("R17: isEnabled feeding back an equal value ends after one round")
    func R17_enabledFeedsBackEqualValue() {
        let on = MutableProperty(true)
        let action = Action<Void, Int, ProbeError>(enabledIf: Property(on)) { _ in .empty }
        let log = Locked<[Bool]>([])
        let finished = finishesWithin(seconds: 20) {
            action.isEnabled.producer.startWithValues { enabled in
                log.append(enabled)
                on.value = true
            }
        }
        #expect(finished, "feedback loop: the observer never returned")
        #expect(log.value == [true])
    }

    @Test("R17: isExecuting feeding back the enabling value reads false, true, false and ends")
    func R17_executingFeedsBackEqualValue() {
        let on = MutableProperty(true)
        let action = Action<Void, Int, ProbeError>(enabledIf: Property(on)) { _ in SignalProducer(value: 1) }
        let log = Locked<[Bool]>([])
        let finished = finishesWithin(seconds: 20) {
            action.isExecuting.producer.startWithValues { executing in
                log.append(executing)
                on.value = on.value
            }
            action.apply().start()
        }
        #expect(finished, "feedback loop: the observer never returned")
        #expect(log.value == [false, true, false])
    }

    @Test("R17: equal sets of the enabling property leave isEnabled's history unchanged")
    func R17_equalSetsFromOutside() {
        let on = MutableProperty(true)
        let action = Action<Void, Int, ProbeError>(enabledIf: Property(on)) { _ in .empty }
        let (enabled, _) = action.isEnabled.producer.record()
        for _ in 0..<5 { on.value = true }
        #expect(enabled.events == [.value(true)])
        on.value = false
        on.value = false
        on.value = true
        #expect(enabled.events == [.value(true), .value(false), .value(true)])
    }

    @Test("R17: a MutableProperty still notifies every set, equal or not (as in ReactiveSwift)")
    func R17_mutablePropertyNotifiesEverySet() {
        let on = MutableProperty(true)
        let changes = Property(on).signal.record()
        for _ in 0..<5 { on.value = true }
        #expect(changes.events == Array(repeating: .value(true), count: 5))
    }

    /// Whether this is a debug build, where a drain of more than a million events traps (release builds
    /// run such a drain on: these tests would loop forever there). The trap tests lower the limit to
    /// 10,000 events in their child process, so they take seconds under a sanitizer, not minutes.
    static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    @Test(
        "R17: a true oscillation through isEnabled traps in debug builds instead of hanging",
        .enabled(if: isDebugBuild, "the feedback-loop trap exists in debug builds only"))
    func R17_oscillationTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            #if DEBUG
                feedbackLoopLimitForTests.relaxedStore(10_000)
            #endif
            let on = MutableProperty(true)
            let action = Action<Void, Int, ProbeError>(enabledIf: Property(on)) { _ in .empty }
            action.isEnabled.producer.startWithValues { enabled in on.value = !enabled }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("possible feedback loop"))
        #expect(stderr.contains("Signal<Bool, Never>"))
        #expect(stderr.contains("more than 10000 events"), "the lowered limit")
    }

    @Test(
        "R17: an observer that re-sends into its own signal forever traps, naming the signal's type",
        .enabled(if: isDebugBuild, "the feedback-loop trap exists in debug builds only"))
    func R17_endlessResendTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            #if DEBUG
                feedbackLoopLimitForTests.relaxedStore(10_000)
            #endif
            let (signal, input) = Signal<Int, ProbeError>.pipe()
            signal.observeValues { input.send(value: $0 + 1) }
            input.send(value: 0)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("possible feedback loop"))
        #expect(stderr.contains("Signal<Int, ProbeError>"))
        #expect(stderr.contains("more than 10000 events"), "the lowered limit")
    }

    @Test("R17: 4 threads toggle the enabling property while the observer writes it back (barrier)")
    func R17_togglingWritersStress() {
        let on = MutableProperty(true)
        let action = Action<Void, Int, ProbeError>(enabledIf: Property(on)) { _ in .empty }
        let log = Unsynchronized<[Bool]>([])
        // The observer writes back an equal value: the property's value at the time of the callout. (Writing
        // back the value of the event instead can oscillate for ever once two stale write-backs of opposite
        // values are queued; that is a true feedback loop, which the debug drain limit reports.)
        action.isEnabled.producer.startWithValues { enabled in
            log.value.append(enabled)
            on.value = on.value
        }
        let finished = finishesWithin(seconds: 120) {
            raceFromBarrier(threads: 4) { thread in
                for index in 0..<10_000 {
                    on.value = (index + thread) % 2 == 0
                }
            }
        }
        #expect(finished, "feedback loop or deadlock: the writers never finished")
        let history = log.value
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 != $1 })
        #expect(history.last == action.isEnabled.value)
    }
}
