import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("Action")
struct ActionTests {
    enum Failure: Error, Equatable { case boom }

    @Test("R13: synchronous work: isExecuting reads [false, true, false], values [1], and it can run again")
    func R13_synchronousWork() {
        let action = Action<Int, Int, Never> { SignalProducer(value: $0) }
        let (executing, _) = action.isExecuting.producer.record()
        let (enabled, _) = action.isEnabled.producer.record()
        let values = action.values.record()
        let (first, _) = action.apply(1).record()
        #expect(executing.values == [false, true, false])
        #expect(enabled.values == [true, false, true])
        #expect(values.values == [1])
        #expect(first.events == [.value(1), .completed])
        let (second, _) = action.apply(2).record()
        #expect(second.events == [.value(2), .completed])
        #expect(values.values == [1, 2])
        #expect(executing.values == [false, true, false, true, false])
    }

    @Test("R13: isExecuting is already false when the run's terminal event arrives, so it may apply again")
    func R13_applyAgainFromTerminalEvent() {
        let action = Action<Int, Int, Never> { SignalProducer(value: $0) }
        let runs = Locked<[Signal<Int, ActionError<Never>>.Event]>([])
        action.apply(1).startWithCompleted {
            #expect(!action.isExecuting.value)
            action.apply(2).start { runs.append($0) }
        }
        #expect(runs.value == [.value(2), .completed])
    }

    @Test("R13: apply while executing fails at once with disabled, starts nothing, and fires disabledErrors")
    func R13_applyWhileExecuting() {
        let server = ManualServer<Int, Int, Failure>()
        let action = Action<Int, Int, Failure> { server.producer($0) }
        let disabled = action.disabledErrors.record()
        let (first, _) = action.apply(1).record()
        let (second, _) = action.apply(2).record()
        #expect(second.events == [.failed(.disabled)])
        #expect(server.keys == [1])
        #expect(disabled.events.count == 1)
        #expect(action.isExecuting.value)
        server.last?.succeed(10)
        #expect(first.events == [.value(10), .completed])
        #expect(!action.isExecuting.value)
    }

    @Test("R13: a failing run reaches errors and events, and the action is enabled again")
    func R13_failingRun() {
        let server = ManualServer<Int, Int, Failure>()
        let action = Action<Int, Int, Failure> { server.producer($0) }
        let errors = action.errors.record()
        let events = action.events.record()
        let completed = action.completed.record()
        let (run, _) = action.apply(1).record()
        server.last?.fail(.boom)
        #expect(run.events == [.failed(.producerFailed(.boom))])
        #expect(errors.values == [.boom])
        #expect(events.values == [.failed(.boom)])
        #expect(completed.values.isEmpty)
        #expect(action.isEnabled.value)
    }

    @Test("R13: a disabled action refuses to start until enabledIf holds again")
    func R13_enabledIf() {
        let enabled = MutableProperty(false)
        let starts = Locked(0)
        let action = Action<Void, Int, Never>(enabledIf: Property(enabled)) {
            starts.increment(by: 1)
            return SignalProducer(value: 1)
        }
        #expect(!action.isEnabled.value)
        #expect(action.apply().record().0.events == [.failed(.disabled)])
        enabled.value = true
        #expect(action.isEnabled.value)
        #expect(action.apply().record().0.events == [.value(1), .completed])
        #expect(starts.value == 1)
    }

    @Test("R13: the state a run gets is the value the enabling check accepted, while another thread flips it")
    func R13_stateReadAtomicallyWithTheCheck() {
        let state = MutableProperty(0)
        let accepted = Locked<[Int]>([])
        let action = Action<Void, Int, Never>(state: state, enabledIf: { $0 % 2 == 0 }) { value, _ in
            accepted.append(value)
            return SignalProducer(value: value)
        }
        let flipped = Locked(false)
        let finished = finishesWithin(seconds: 60) {
            raceFromBarrier(threads: 5) { thread in
                if thread == 0 {
                    for value in 1...20_000 { state.value = value }
                    flipped.value = true
                } else {
                    // Until the flips end, however the threads are scheduled: on a loaded machine 2,000 starts
                    // can all fall in one pause of the flipping thread at an odd value, and none is accepted.
                    for _ in 0..<2_000 { action.apply().start() }
                    while !flipped.value { action.apply().start() }
                }
            }
        }
        #expect(finished)
        // The flips end at an even value: the starts after them are accepted.
        action.apply().start()
        #expect(!accepted.value.isEmpty)
        #expect(accepted.value.allSatisfy { $0 % 2 == 0 })
    }

    @Test("R13: isExecuting feeding the state does not deadlock (ReactiveSwift ActionSpec)")
    func R13_executingFeedsState() {
        let condition = MutableProperty(true)
        let action = Action<Void, Void, Never>(state: condition, enabledIf: { $0 }) { _, _ in
            SignalProducer(value: ())
        }
        action.isExecuting.signal.observeValues { executing in
            if executing { condition.value = false }
        }
        let finished = finishesWithin(seconds: 10) { action.apply().start() }
        #expect(finished)
        #expect(!condition.value)
        #expect(!action.isEnabled.value)
    }

    @Test("R13: isEnabled feeding the state does not deadlock (ReactiveSwift ActionSpec)")
    func R13_enabledFeedsState() {
        let condition = MutableProperty(true)
        let action = Action<Void, Void, Never>(state: condition, enabledIf: { $0 }) { _, _ in
            SignalProducer(value: ())
        }
        // Disabling writes the state once; the write re-derives isEnabled but does not write again.
        action.isEnabled.signal.observeValues { enabled in
            if !enabled && condition.value { condition.value = false }
        }
        let finished = finishesWithin(seconds: 10) { action.apply().start() }
        #expect(finished)
        #expect(!condition.value)
        #expect(!action.isEnabled.value)
    }

    @Test("R13: an enabledIf built from isExecuting does not deadlock")
    func R13_enabledIfFromIsExecuting() {
        let other = Action<Void, Void, Never> { SignalProducer(value: ()) }
        let action = Action<Void, Int, Never>(enabledIf: other.isExecuting.map { !$0 }) { SignalProducer(value: 1) }
        let log = Locked<[Signal<Int, ActionError<Never>>.Event]>([])
        let finished = finishesWithin(seconds: 10) {
            other.isExecuting.signal.observeValues { _ in action.apply().start { log.append($0) } }
            other.apply().start()
        }
        #expect(finished)
        // Applied while `other` ran (disabled), then after it finished (runs).
        #expect(log.value == [.failed(.disabled), .value(1), .completed])
    }

    @Test("R13: an action that releases another action during a delivery does not deadlock (ActionSpec)")
    func R13_releasingNestedActionDuringDelivery() {
        final class ViewModel: Sendable {
            let inner = Action<Void, Void, Never> { SignalProducer(value: ()) }
        }
        let outer = Action<Void, ViewModel, Never> { SignalProducer(value: ViewModel()) }
        let current = SerialDisposable()
        let seen = Locked(0)
        let finished = finishesWithin(seconds: 10) {
            outer.values.observeValues { viewModel in
                // Like flatMap(.latest): replacing the observation releases the previous view model,
                // whose action deinitialises, ending its signals, during this delivery.
                current.inner = viewModel.inner.values.observeValues { _ in
                    withExtendedLifetime(viewModel) {}
                    seen.increment(by: 1)
                }
                viewModel.inner.apply().start()
            }
            outer.apply().start()
            outer.apply().start()
        }
        #expect(finished)
        #expect(seen.value == 2)
    }

    @Test("R13: an observer of isExecuting that changes the state does not loop (ActionSpec)")
    func R13_doesNotLoopIndefinitely() {
        let condition = MutableProperty(1)
        let action = Action<Void, Void, Never>(state: condition, enabledIf: { $0 == 0 }) { _, _ in .empty }
        let count = Locked(0)
        let finished = finishesWithin(seconds: 10) {
            action.isExecuting.producer.startWithValues { _ in
                condition.value = 10
                count.increment(by: 1)
            }
        }
        #expect(finished)
        #expect(count.value == 1)
    }

    @Test("R13: 16 threads apply from a barrier against blocked work: 1 start, 15 disabled (500 rounds)")
    func R13_concurrentApply() {
        for _ in 0..<500 {
            let server = ManualServer<Int, Int, Never>()
            let action = Action<Int, Int, Never> { server.producer($0) }
            let disabled = action.disabledErrors.record()
            let results = Locked<[Signal<Int, ActionError<Never>>.Event]>([])
            raceFromBarrier(threads: 16) { thread in
                action.apply(thread).start { event in
                    if event.isTerminating { results.append(event) }
                }
            }
            #expect(server.requests.count == 1)
            #expect(results.value == Array(repeating: .failed(.disabled), count: 15))
            #expect(disabled.events.count == 15)
            #expect(action.isExecuting.value)
            server.last?.succeed(1)
            #expect(!action.isExecuting.value)
            #expect(results.value.count == 16)
            #expect(results.value.last == .completed)
        }
    }

    @Test("R8: an action released with a run in flight frees itself and interrupts the run")
    func R8_releasedWithRunInFlight() {
        let server = ManualServer<Int, Int, Never>()
        let leaks = LeakCheck()
        let run = EventRecorder<Int, ActionError<Never>>()
        let values = Locked<EventRecorder<Int, Never>?>(nil)
        do {
            let action = Action<Int, Int, Never> { server.producer($0) }
            leaks.track(action, "action")
            leaks.track(action.isExecuting, "isExecuting")
            values.value = action.values.record()
            action.apply(1).start(run.observer)
            server.last?.send(1)
        }
        #expect(leaks.survivors == [])
        #expect(server.last?.isDisposed == true)
        #expect(run.events == [.value(1), .interrupted])
        #expect(values.value?.events == [.value(1), .interrupted])
        // A late response reaches nobody.
        server.last?.send(2)
        #expect(run.events == [.value(1), .interrupted])
    }
}
