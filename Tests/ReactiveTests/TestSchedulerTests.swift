import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    /// A log of `name@time` entries, written by actions.
    private final class Log: Sendable {
        private let entries = Locked<[String]>([])
        var all: [String] { entries.value }
        func note(_ name: String, _ scheduler: TestScheduler) {
            entries.append("\(name)@\(scheduler.now.sinceOrigin)")
        }
    }

    @Test("R14: same-instant work runs FIFO, and work scheduled inside the window runs in it, in time order")
    func R14_fifoTiesAndWorkScheduledInsideTheWindow() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) {
            log.note("A", scheduler)
            scheduler.schedule(after: .zero) { log.note("C", scheduler) }
            scheduler.schedule(after: .milliseconds(500)) { log.note("D", scheduler) }
        }
        scheduler.schedule(after: .seconds(1)) { log.note("B", scheduler) }
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["A@1.0 seconds", "B@1.0 seconds", "C@1.0 seconds"])
        #expect(scheduler.now == .at(.seconds(1)))
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(500))
        #expect(log.all == ["A@1.0 seconds", "B@1.0 seconds", "C@1.0 seconds", "D@1.5 seconds"])
        expectNoPendingWork(scheduler)
    }

    @Test("R14: work that falls due inside a window runs in that window, in time order, not in scheduling order")
    func R14_workScheduledInsideTheWindowRunsInTimeOrder() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) {
            log.note("A", scheduler)
            scheduler.schedule(after: .seconds(3)) { log.note("late", scheduler) }
            scheduler.schedule(after: .seconds(1)) { log.note("early", scheduler) }
        }
        scheduler.schedule(after: .seconds(3)) { log.note("B", scheduler) }
        scheduler.advance(by: .seconds(10))
        #expect(log.all == ["A@1.0 seconds", "early@2.0 seconds", "B@3.0 seconds", "late@4.0 seconds"])
        #expect(scheduler.now == .at(.seconds(10)))
        expectNoPendingWork(scheduler)
    }

    @Test("R14: a repeating action with interval 10 fires 5 times in 50, at each multiple of 10")
    func R14_repeatingTimerFiresFiveTimes() {
        let scheduler = TestScheduler()
        let log = Log()
        let timer = scheduler.schedule(after: .seconds(10), interval: .seconds(10)) { log.note("tick", scheduler) }
        scheduler.advance(by: .seconds(50))
        #expect(log.all == (1...5).map { "tick@\($0 * 10).0 seconds" })
        #expect(scheduler.pendingCount == 1)
        timer.dispose()
        scheduler.advance(by: .seconds(100))
        #expect(log.all.count == 5)
        expectNoPendingWork(scheduler)
    }

    @Test("R14: advance(by: .zero) and advance() run the work already due, and nothing runs while scheduling")
    func R14_advanceByZeroRunsDueWork() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule { log.note("first", scheduler) }
        #expect(log.all == [])
        scheduler.advance(by: .zero)
        #expect(log.all == ["first@0.0 seconds"])
        scheduler.schedule { log.note("second", scheduler) }
        scheduler.schedule(after: .nanoseconds(1)) { log.note("not yet", scheduler) }
        scheduler.advance()
        #expect(log.all == ["first@0.0 seconds", "second@0.0 seconds"])
        #expect(scheduler.pendingCount == 1)
        scheduler.run()
        expectNoPendingWork(scheduler)
    }

    @Test("R14: run() drains everything, including work scheduled by work, moving the clock to each due time")
    func R14_runDrainsWorkScheduledByWork() {
        let scheduler = TestScheduler()
        let log = Log()
        @Sendable func chain(_ remaining: Int) {
            log.note("step\(remaining)", scheduler)
            guard remaining > 0 else { return }
            scheduler.schedule(after: .seconds(5)) { chain(remaining - 1) }
        }
        scheduler.schedule(after: .seconds(1)) { chain(3) }
        scheduler.run()
        #expect(log.all == ["step3@1.0 seconds", "step2@6.0 seconds", "step1@11.0 seconds", "step0@16.0 seconds"])
        #expect(scheduler.now == .at(.seconds(16)))
        expectNoPendingWork(scheduler)
    }

    @Test("run() ticks repeating work on the way and returns once only repeating work is left")
    func runStopsWhenOnlyRepeatingWorkIsLeft() {
        let scheduler = TestScheduler()
        let log = Log()
        let timer = scheduler.schedule(after: .seconds(10), interval: .seconds(10)) { log.note("tick", scheduler) }
        scheduler.schedule(after: .seconds(35)) { log.note("once", scheduler) }
        scheduler.run()
        #expect(log.all == ["tick@10.0 seconds", "tick@20.0 seconds", "tick@30.0 seconds", "once@35.0 seconds"])
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.nextDue == .at(.seconds(40)))
        timer.dispose()
        scheduler.run()
        expectNoPendingWork(scheduler)
    }

    @Test("cancelled work never runs, leaves the queue at once and releases what it captured")
    func cancellingScheduledWork() {
        let scheduler = TestScheduler()
        let log = Log()
        let tracker = LifetimeTracker()
        let disposable: any Disposable = {
            let token = tracker.instance()
            return scheduler.schedule(after: .seconds(1)) {
                _ = token
                log.note("cancelled", scheduler)
            }
        }()
        scheduler.schedule(after: .seconds(1)) { log.note("kept", scheduler) }
        #expect(scheduler.pendingCount == 2)
        disposable.dispose()
        #expect(scheduler.pendingCount == 1)
        #expect(tracker.live == 0)
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["kept@1.0 seconds"])
        disposable.dispose()
        expectNoPendingWork(scheduler)
    }

    @Test("an action may cancel other work, or its own repetition, while it runs")
    func actionsMayCancelWork() {
        let scheduler = TestScheduler()
        let log = Log()
        let victim = Locked<(any Disposable)?>(nil)
        let timer = Locked<(any Disposable)?>(nil)
        scheduler.schedule(after: .seconds(1)) {
            log.note("canceller", scheduler)
            victim.value?.dispose()
        }
        victim.value = scheduler.schedule(after: .seconds(1)) { log.note("victim", scheduler) }
        let ticks = Locked(0)
        timer.value = scheduler.schedule(after: .seconds(1), interval: .seconds(1)) {
            log.note("tick", scheduler)
            if ticks.withLock({ ticks -> Int in
                ticks += 1
                return ticks
            }) == 3 {
                timer.value?.dispose()
            }
        }
        scheduler.advance(by: .seconds(10))
        #expect(
            log.all == ["canceller@1.0 seconds", "tick@1.0 seconds", "tick@2.0 seconds", "tick@3.0 seconds"]
        )
        expectNoPendingWork(scheduler)
    }

    @Test("advance(to:) runs work due exactly at the instant and leaves the clock there")
    func advanceToIncludesTheEnd() {
        let scheduler = TestScheduler(startingAt: .at(.seconds(100)))
        let log = Log()
        scheduler.schedule(after: .seconds(5)) { log.note("edge", scheduler) }
        scheduler.schedule(after: .seconds(6)) { log.note("beyond", scheduler) }
        scheduler.advance(to: .at(.seconds(105)))
        #expect(log.all == ["edge@105.0 seconds"])
        #expect(scheduler.now == .at(.seconds(105)))
        scheduler.advance(to: scheduler.now)
        #expect(log.all == ["edge@105.0 seconds"])
        scheduler.run()
        #expect(log.all == ["edge@105.0 seconds", "beyond@106.0 seconds"])
    }

    @Test("a negative delay counts as zero")
    func negativeDelayIsZero() {
        let scheduler = TestScheduler(startingAt: .at(.seconds(1)))
        let log = Log()
        scheduler.schedule(after: .seconds(-5)) { log.note("late", scheduler) }
        scheduler.advance()
        #expect(log.all == ["late@1.0 seconds"])
    }

    @Test("an action may advance the scheduler it runs on; time never moves backwards")
    func reentrantAdvance() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) {
            log.note("outer", scheduler)
            scheduler.advance(by: .seconds(5))
            log.note("outer-after", scheduler)
        }
        scheduler.schedule(after: .seconds(3)) { log.note("inner", scheduler) }
        scheduler.schedule(after: .seconds(8)) { log.note("later", scheduler) }
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["outer@1.0 seconds", "inner@3.0 seconds", "outer-after@6.0 seconds"])
        #expect(scheduler.now == .at(.seconds(6)))
        scheduler.run()
        #expect(log.all.last == "later@8.0 seconds")
    }

    @Test("advance(to:) an instant earlier than now traps with a message naming the instant")
    func advanceBackwardsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.advance(by: .seconds(2))
            scheduler.advance(to: .at(.seconds(1)))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("advance(to:): instant"))
    }

    @Test("advance(by:) a negative duration traps with a message naming the duration")
    func advanceByNegativeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: .seconds(-1))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("duration must not be negative"))
    }

    @Test("a repeating interval of zero traps with a message naming interval")
    func zeroIntervalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().schedule(after: .zero, interval: .zero) {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("interval must be greater than zero"))
    }

    @Test("R14: advancing from a second thread while another thread is advancing traps (one driver)")
    func R14_secondDriverTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            let running = DispatchSemaphore(value: 0)
            let never = DispatchSemaphore(value: 0)
            scheduler.schedule {
                running.signal()
                never.wait()
            }
            Thread.detachNewThread { scheduler.advance() }
            running.wait()
            scheduler.advance()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("driven by one thread"))
    }

    @Test("scheduling from many threads at once loses nothing and keeps each thread's FIFO order")
    func concurrentScheduling() {
        let scheduler = TestScheduler()
        let perThread = 2_000
        let logs = (0..<4).map { _ in Locked<[Int]>([]) }
        raceFromBarrier(threads: 4) { thread in
            for index in 0..<perThread {
                let delay: Duration = index.isMultiple(of: 2) ? .zero : .seconds(1)
                scheduler.schedule(after: delay) { logs[thread].append(index) }
                if index.isMultiple(of: 100) { _ = scheduler.now }
            }
        }
        #expect(scheduler.pendingCount == 4 * perThread)
        scheduler.run()
        for log in logs {
            let evens = Array(stride(from: 0, to: perThread, by: 2))
            let odds = Array(stride(from: 1, to: perThread, by: 2))
            #expect(log.value == evens + odds)
        }
        expectNoPendingWork(scheduler)
    }

    @Test("releasing a scheduler with pending work releases the work")
    func releasingTheSchedulerReleasesWork() {
        let tracker = LifetimeTracker()
        let freed = isFreed {
            let scheduler = TestScheduler()
            let token = tracker.instance()
            scheduler.schedule(after: .seconds(1)) { _ = token }
            scheduler.schedule(after: .zero, interval: .seconds(1)) { _ = token }
            return scheduler
        }
        #expect(freed)
        #expect(tracker.created == 1)
        #expect(tracker.live == 0)
    }
}
