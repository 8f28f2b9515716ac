import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// A run of `Action.apply(_:)` is the run of its work, with no signal of its own, and the action keeps
/// the run in flight in one slot of its lifetime. These tests pin what that must keep.
@Suite("Action runs")
struct ActionRunTests {
    @Test("R13: a run disposed by its starter reaches its observer as interrupted after isExecuting is false")
    func R13_disposedRunEndsAfterExecutingIsFalse() {
        let server = ManualServer<Int, Int, Never>()
        let action = Action<Int, Int, Never> { server.producer($0) }
        let seen = Locked<[String]>([])
        let disposable = action.apply(1).start { event in
            seen.append("\(event) executing \(action.isExecuting.value)")
        }
        server.last?.send(1)
        disposable.dispose()
        #expect(seen.value == ["value(1) executing true", "interrupted executing false"])
        #expect(server.last?.isDisposed == true)
        // The action is free again at once.
        let (again, _) = action.apply(2).record()
        server.last?.succeed(20)
        #expect(again.events == [.value(20), .completed])
    }

    @Test("R8: a run of an apply producer kept after its action was released is interrupted before its work")
    func R8_runAfterTheActionWasReleased() {
        let started = Locked(0)
        let producer: SignalProducer<Int, ActionError<Never>>
        do {
            let action = Action<Int, Int, Never> { input in
                SignalProducer { observer, _ in
                    started.increment(by: 1)
                    observer.send(value: input)
                }
            }
            producer = action.apply(1)
        }
        let (recorder, _) = producer.record()
        #expect(started.value == 0)
        #expect(recorder.events == [.interrupted])
    }

    @Test("R8: an action lets go of each run when it ends: 1,000 executions leave no run resource alive")
    func R8_finishedRunsAreReleased() {
        let tracker = LifetimeTracker()
        let action = Action<Int, Int, Never> { input in
            SignalProducer { observer, lifetime in
                let token = tracker.instance()
                lifetime.observeEnded { withExtendedLifetime(token) {} }
                observer.send(value: input)
                if input % 2 == 0 { observer.sendCompleted() } else { observer.sendInterrupted() }
            }
        }
        let values = action.values.record()
        for input in 0..<1_000 {
            action.apply(input).start()
        }
        #expect(values.values == Array(0..<1_000))
        #expect(tracker.created == 1_000)
        #expect(tracker.live == 0)
        #expect(!action.isExecuting.value)
    }

    @Test("R13: a run whose work sends from another thread delivers in order, its terminal after the outputs")
    func R13_workOnAnotherThread() {
        let server = ManualServer<Int, Int, Never>()
        let action = Action<Int, Int, Never> { server.producer($0) }
        let values = action.values.record()
        let completed = action.completed.record()
        let seen = Locked<[String]>([])
        let ended = DispatchSemaphore(value: 0)
        action.apply(1).start { event in
            seen.append("\(event) values \(values.values.count) completed \(completed.values.count)")
            if event.isTerminating { ended.signal() }
        }
        let queue = DispatchQueue(label: "work")
        server.last?.send(1, on: queue)
        server.last?.succeed(2, on: queue)
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(
            seen.value == [
                "value(1) values 1 completed 0", "value(2) values 2 completed 0", "completed values 2 completed 1",
            ])
        #expect(!action.isExecuting.value)
    }
}
