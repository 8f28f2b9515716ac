import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("QueueScheduler")
struct QueueSchedulerTests {
    /// A queue to target, tagged so an action can tell it runs there.
    private final class TaggedQueue: Sendable {
        let queue: DispatchQueue
        private let key = DispatchSpecificKey<Int>()

        init(_ label: String) {
            queue = DispatchQueue(label: label)
            queue.setSpecific(key: key, value: 1)
        }

        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

        /// Waits until the queue has run everything queued so far.
        func flush() { queue.sync {} }
    }

    @Test("actions run on the scheduler's queue, one at a time, in the order they were scheduled")
    func actionsRunOnTheQueueInOrder() {
        let target = TaggedQueue("QueueSchedulerTests.order")
        let scheduler = QueueScheduler(label: "order", qos: .userInitiated, targeting: target.queue)
        let count = 2_000
        let log = Locked<[Int]>([])
        let offQueue = Locked(0)
        let inFlight = Locked(0)
        let overlaps = Locked(0)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            scheduler.schedule {
                if inFlight.withLock({ value -> Int in
                    value += 1
                    return value
                }) != 1 {
                    overlaps.increment(by: 1)
                }
                if !target.isCurrent { offQueue.increment(by: 1) }
                log.append(index)
                inFlight.withLock { $0 -= 1 }
                if index == count - 1 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(log.value == Array(0..<count))
        #expect(offQueue.value == 0)
        #expect(overlaps.value == 0)
    }

    @Test("delayed actions run on the queue in deadline order, no earlier than their delay")
    func delayedActionsRunInDeadlineOrder() {
        let target = TaggedQueue("QueueSchedulerTests.delays")
        let scheduler = QueueScheduler(targeting: target.queue)
        // Each action's deadline lies between the clock read just before and just after its schedule call;
        // a loaded machine may stall between the calls, so the expected order comes from those bounds.
        let deadlines = Locked<[Int: ClosedRange<SchedulerInstant>]>([:])
        let log = Locked<[(Int, SchedulerInstant, Bool)]>([])
        let done = DispatchSemaphore(value: 0)
        for milliseconds in [40, 10, 25] {
            let before = scheduler.now
            scheduler.schedule(after: .milliseconds(milliseconds)) {
                log.append((milliseconds, scheduler.now, target.isCurrent))
                if log.value.count == 3 { done.signal() }
            }
            let after = scheduler.now
            deadlines.withLock {
                $0[milliseconds] = (before + .milliseconds(milliseconds))...(after + .milliseconds(milliseconds))
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let ran = log.value
        #expect(ran.count == 3)
        for (earlier, later) in zip(ran, ran.dropFirst()) {
            let earlierDeadline = deadlines.value[earlier.0]!
            let laterDeadline = deadlines.value[later.0]!
            #expect(
                laterDeadline.upperBound >= earlierDeadline.lowerBound,
                "\(later.0) ms fell due before \(earlier.0) ms yet ran after it")
        }
        for (milliseconds, ranAt, onQueue) in ran {
            #expect(ranAt >= deadlines.value[milliseconds]!.lowerBound, "\(milliseconds) ms ran early")
            #expect(onQueue)
        }
    }

    @Test("a cancelled action never runs, and releases what it captured at once")
    func cancelledActionNeverRuns() {
        let target = TaggedQueue("QueueSchedulerTests.cancel")
        let scheduler = QueueScheduler(targeting: target.queue)
        let tracker = LifetimeTracker()
        let ran = Locked<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        scheduler.schedule { gate.wait() }
        let (soon, later): (any Disposable, any Disposable) = {
            let token = tracker.instance()
            let soon = scheduler.schedule {
                _ = token
                ran.append("soon")
            }
            let later = scheduler.schedule(after: .seconds(3600)) {
                _ = token
                ran.append("later")
            }
            return (soon!, later)
        }()
        soon.dispose()
        later.dispose()
        #expect(tracker.live == 0)
        #expect(soon.isDisposed && later.isDisposed)
        gate.signal()
        target.flush()
        #expect(ran.value == [])
    }

    @Test("a repeating action ticks on the queue until disposed, then releases what it captured")
    func repeatingActionTicksUntilDisposed() {
        let target = TaggedQueue("QueueSchedulerTests.repeat")
        let scheduler = QueueScheduler(targeting: target.queue)
        let tracker = LifetimeTracker()
        let ticks = Locked(0)
        let offQueue = Locked(0)
        let timer: any Disposable = {
            let token = tracker.instance()
            return scheduler.schedule(after: .zero, interval: .milliseconds(1), leeway: .milliseconds(1)) {
                _ = token
                if !target.isCurrent { offQueue.increment(by: 1) }
                ticks.increment(by: 1)
            }
        }()
        #expect(eventually(seconds: 30) { ticks.value >= 3 })
        timer.dispose()
        target.flush()
        let afterDispose = ticks.value
        #expect(eventually(seconds: 30) { tracker.live == 0 })
        target.flush()
        #expect(ticks.value == afterDispose)
        #expect(offQueue.value == 0)
    }

    @Test("now follows the system's monotonic clock")
    func nowIsMonotonic() {
        let scheduler = QueueScheduler()
        let before = scheduler.now
        let wall = ContinuousClock.now
        while ContinuousClock.now - wall < .milliseconds(5) {}
        let after = scheduler.now
        #expect(after - before >= .milliseconds(4))
        #expect(after - before < .seconds(30))
    }

    @Test("the main scheduler is one shared instance")
    func mainIsShared() {
        let viaProtocol: QueueScheduler = .main
        #expect(viaProtocol === QueueScheduler.main)
    }

    @Test("start(on:) runs the start handler on the queue")
    func startOnRunsTheHandlerOnTheQueue() {
        let target = TaggedQueue("QueueSchedulerTests.startOn")
        let scheduler = QueueScheduler(targeting: target.queue)
        let onQueue = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let producer = SignalProducer<Int, Never> { observer, _ in
            onQueue.append(target.isCurrent)
            observer.send(value: 1)
            observer.sendCompleted()
        }
        producer.start(on: scheduler).startWithCompleted { done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(onQueue.value == [true])
    }

    @Test("R14: observe(on:) a queue from several threads delivers on the queue, each sender in order, none lost")
    func R14_observeOnStress() {
        let target = TaggedQueue("QueueSchedulerTests.stress")
        let scheduler = QueueScheduler(targeting: target.queue)
        let (signal, input) = Signal<(thread: Int, index: Int), Never>.pipe()
        let senders = 4
        let perSender = 5_000
        nonisolated(unsafe) var perThread = Array(repeating: [Int](), count: senders)
        nonisolated(unsafe) var offQueue = 0
        let done = DispatchSemaphore(value: 0)
        signal.observe(on: scheduler).observe { event in
            switch event {
            case .value(let value):
                if !target.isCurrent { offQueue += 1 }
                perThread[value.thread].append(value.index)
            case .completed:
                done.signal()
            default:
                break
            }
        }
        raceFromBarrier(threads: senders) { thread in
            for index in 0..<perSender { input.send(value: (thread, index)) }
        }
        input.sendCompleted()
        #expect(done.wait(timeout: .now() + 60) == .success)
        target.flush()
        for log in perThread {
            #expect(log == Array(0..<perSender))
        }
        #expect(offQueue == 0)
    }
}

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
    @Test("runs each action at once on the calling thread, nested actions nested, and returns nil")
    func runsAtOnce() {
        let scheduler = ImmediateScheduler()
        let log = Locked<[String]>([])
        let disposable = scheduler.schedule {
            log.append("outer")
            scheduler.schedule { log.append("inner") }
            log.append("outer end")
        }
        log.append("after")
        #expect(disposable == nil)
        #expect(log.value == ["outer", "inner", "outer end", "after"])
    }
}
