import Dispatch
import Foundation
import TestSupport
import Testing

@testable import Reactive

/// `isEnabled` is kept by the action itself (`enabledIf && !isExecuting`, recomputed after either
/// changes), and a run of `SignalProducer(value:)` is delivered by the action with no observer of its
/// own. These tests pin what both must keep.
@Suite("Action status and constant runs")
struct ActionStatusTests {
    @Test("R13: isEnabled follows enabledIf while idle, stays false during a run, then takes enabledIf's value")
    func R13_isEnabledFollowsTheConditionAndTheRun() {
        let on = MutableProperty(true)
        let server = ManualServer<Int, Int, Never>()
        let action = Action<Int, Int, Never>(enabledIf: Property(on)) { server.producer($0) }
        let (enabled, _) = action.isEnabled.producer.record()
        on.value = false
        on.value = true
        #expect(enabled.values == [true, false, true])
        action.apply(1).start()
        #expect(enabled.values == [true, false, true, false])
        // Changes of the condition during the run change nothing: a run in progress disables.
        on.value = false
        on.value = true
        on.value = false
        #expect(enabled.values == [true, false, true, false])
        server.last?.succeed(1)
        // The run ended while the condition is false: still disabled, nothing sent.
        #expect(enabled.values == [true, false, true, false])
        on.value = true
        #expect(enabled.values == [true, false, true, false, true])
        #expect(action.isEnabled.value)
    }

    @Test("R13: 3 threads apply constant work while 1 toggles enabledIf: isEnabled changes each time and settles right")
    func R13_isEnabledSettlesUnderRaces() {
        for _ in 0..<20 {
            let on = MutableProperty(true)
            let action = Action<Int, Int, Never>(enabledIf: Property(on)) { SignalProducer(value: $0) }
            let history = Locked<[Bool]>([])
            action.isEnabled.producer.startWithValues { history.append($0) }
            raceFromBarrier(threads: 4) { thread in
                for index in 0..<2_000 {
                    if thread == 0 {
                        on.value = index % 2 == 0
                    } else {
                        action.apply(index).start()
                    }
                }
            }
            let seen = history.value
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "isEnabled sent a repeat")
            #expect(!action.isExecuting.value)
            #expect(action.isEnabled.value == on.value)
            #expect(seen.last == on.value)
        }
    }

    @Test("R8: a released action stops following enabledIf: nothing of it stays attached to a property that lives on")
    func R8_releasedActionLetsGoOfTheCondition() {
        let on = MutableProperty(true)
        weak var status: ActionStatus?
        do {
            let action = Action<Int, Int, Never>(enabledIf: Property(on)) { SignalProducer(value: $0) }
            status = action.status
            on.value = false
            #expect(!action.isEnabled.value)
        }
        #expect(status == nil)
        on.value = true
    }

    @Test("R13: isEnabled changes before isExecuting's observers run, so they read the isEnabled that goes with it")
    func R13_isEnabledBeforeIsExecutingObservers() {
        let action = Action<Int, Int, Never> { SignalProducer(value: $0) }
        let seen = Locked<[String]>([])
        action.isEnabled.signal.observeValues { seen.append("enabled \($0)") }
        action.isExecuting.signal.observeValues { executing in
            seen.append("executing \(executing), enabled \(action.isEnabled.value)")
        }
        action.apply(1).start()
        #expect(
            seen.value == [
                "enabled false", "executing true, enabled false", "enabled true", "executing false, enabled true",
            ])
    }

    @Test("R8: releasing the action completes isEnabled and isExecuting for their remaining observers")
    func R8_releasedActionCompletesItsProperties() {
        let on = MutableProperty(true)
        var action: Action<Int, Int, Never>? = Action(enabledIf: Property(on)) { SignalProducer(value: $0) }
        let enabled = action!.isEnabled.signal.record()
        let executing = action!.isExecuting.signal.record()
        action = nil
        #expect(enabled.events == [.completed])
        #expect(executing.events == [.completed])
        on.value = false
        #expect(enabled.events == [.completed])
    }

    @Test("R13: a run that ends while another thread reads isEnabled inside the condition's modify does not deadlock")
    func R13_runEndsWhileTheConditionIsModified() {
        let on = MutableProperty(true)
        let server = ManualServer<Int, Int, Never>()
        let action = Action<Int, Int, Never>(enabledIf: Property(on)) { server.producer($0) }
        action.apply(1).start()
        let holdsTheCondition = DispatchSemaphore(value: 0)
        let finished = finishesWithin(seconds: 20) {
            let ender = Thread {
                holdsTheCondition.wait()
                // Ends the run: isEnabled is recomputed while the other thread holds the condition's lock.
                server.last?.succeed(1)
            }
            ender.start()
            on.modify { value in
                holdsTheCondition.signal()
                // Long enough for the run's end to reach the condition's lock.
                usleep(50_000)
                value = action.isEnabled.value || true
            }
        }
        #expect(finished, "deadlock between the condition's lock and isEnabled's")
        // Reading the properties after a deadlock would block this thread too: only then.
        if finished {
            #expect(eventually { !action.isExecuting.value && action.isEnabled.value })
        }
    }

    @Test("R13: a run starting while another thread reads isExecuting inside the condition's modify: no deadlock")
    func R13_runStartsWhileTheConditionIsModified() {
        let on = MutableProperty(true)
        let server = ManualServer<Int, Int, Never>()
        let action = Action<Int, Int, Never>(enabledIf: Property(on)) { server.producer($0) }
        let holdsTheCondition = DispatchSemaphore(value: 0)
        let seenInside = Locked<Bool?>(nil)
        let finished = finishesWithin(seconds: 20) {
            let starter = Thread {
                holdsTheCondition.wait()
                // Starts a run: it reads the condition while the other thread holds the condition's lock.
                action.apply(1).start()
            }
            starter.start()
            on.modify { value in
                holdsTheCondition.signal()
                // Long enough for the start to reach the condition's lock.
                usleep(50_000)
                seenInside.value = action.isExecuting.value
                value = true
            }
        }
        #expect(finished, "deadlock between the condition's lock and isExecuting's")
        // Reading the properties after a deadlock would block this thread too: only then.
        if finished {
            // The start waited for the condition: it had not stored isExecuting yet.
            #expect(seenInside.value == false)
            #expect(eventually { action.isExecuting.value && !action.isEnabled.value })
            // The run's work starts on the starter's thread after isExecuting was stored.
            #expect(eventually { server.last != nil })
            server.last?.succeed(1)
            #expect(eventually { !action.isExecuting.value && action.isEnabled.value })
        }
    }

    @Test("R13: 2 threads apply while 1 reads isExecuting and isEnabled inside the condition's modify: no deadlock")
    func R13_startsRaceReadsInsideTheConditionsModify() {
        let on = MutableProperty(true)
        let action = Action<Int, Int, Never>(enabledIf: Property(on)) { SignalProducer(value: $0) }
        let runs = Locked(0)
        action.values.observeValues { _ in runs.increment(by: 1) }
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 3) { thread in
                for index in 0..<2_000 {
                    if thread == 0 {
                        on.modify { $0 = action.isExecuting.value || action.isEnabled.value || index % 2 == 0 }
                    } else {
                        action.apply(index).start()
                    }
                }
            }
        }
        #expect(finished, "deadlock between the condition's lock and the action's")
        if finished {
            #expect(runs.value > 0)
            #expect(!action.isExecuting.value)
            #expect(action.isEnabled.value == on.value)
        }
    }

    @Test("R13: reading isEnabled inside the condition's modify while runs end on other threads does not deadlock")
    func R13_isEnabledReadInsideTheConditionsModify() {
        let on = MutableProperty(true)
        let action = Action<Int, Int, Never>(enabledIf: Property(on)) { SignalProducer(value: $0) }
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 3) { thread in
                for index in 0..<2_000 {
                    if thread == 0 {
                        on.modify { $0 = !action.isEnabled.value || index % 2 == 0 }
                    } else {
                        action.apply(index).start()
                    }
                }
            }
        }
        #expect(finished, "deadlock between the condition's lock and isEnabled's")
        if finished {
            #expect(action.isEnabled.value == (on.value && !action.isExecuting.value))
        }
    }

    @Test("R13: a constant run disposed from its own value ends interrupted; the action is free again")
    func R13_constantRunDisposedFromItsValue() {
        let action = Action<Int, Int, Never> { SignalProducer(value: $0) }
        let outputs = action.events.record()
        let completions = action.completed.record()
        let seen = Locked<[Signal<Int, ActionError<Never>>.Event]>([])
        _ = action.apply(1).startWithSignal { signal, interrupter in
            signal.observe { event in
                seen.append(event)
                if case .value = event { interrupter.dispose() }
            }
        }
        #expect(seen.value == [.value(1), .interrupted])
        #expect(outputs.events == [.value(.value(1)), .value(.interrupted)])
        #expect(completions.events.isEmpty)
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
        let (again, _) = action.apply(2).record()
        #expect(again.events == [.value(2), .completed])
    }

    @Test("R8: a constant run of an apply producer kept after its action was released sends no value")
    func R8_constantRunAfterTheActionWasReleased() {
        let made = Locked(0)
        let producer: SignalProducer<Int, ActionError<Never>>
        do {
            let action = Action<Int, Int, Never> { input in
                made.increment(by: 1)
                return SignalProducer(value: input)
            }
            producer = action.apply(1)
        }
        let (recorder, _) = producer.record()
        #expect(recorder.events == [.interrupted])
        #expect(made.value == 1)
    }

    @Test("a constant producer's run reports disposed once it ended, and disposing it then is harmless")
    func constantRunDisposable() {
        let (recorder, run) = SignalProducer<Int, Never>(value: 7).record()
        #expect(recorder.events == [.value(7), .completed])
        #expect(run.isDisposed)
        run.dispose()
        #expect(recorder.events == [.value(7), .completed])
    }
}
