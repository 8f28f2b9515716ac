import Dispatch
import Reactive
import TestSupport
import Testing

/// A producer that counts its starts, sends 9 and stays open: the request that must not go out.
private final class CountingNet: Sendable {
    let starts = Locked(0)

    var producer: SignalProducer<Int, ProbeError> {
        SignalProducer { [starts] observer, _ in
            starts.increment(by: 1)
            observer.send(value: 9)
        }
    }
}

@Suite("Follow-up starts after disposal")
struct FollowUpStartTests {
    @Test("R18: prefix(value:) then take(first: 1) never starts the producer")
    func R18_prefixThenTakeFirst() {
        let net = CountingNet()
        let (recorder, _) = net.producer.prefix(value: 0).take(first: 1).record()
        #expect(recorder.events == [.value(0), .completed])
        #expect(net.starts.value == 0)
    }

    @Test("R18: concat never starts the next producer of a run disposed while the first was starting")
    func R18_concatThenTakeFirst() {
        let net = CountingNet()
        let (recorder, _) = SignalProducer<Int, ProbeError>(value: 1).concat(net.producer).take(first: 1).record()
        #expect(recorder.events == [.value(1), .completed])
        #expect(net.starts.value == 0)
    }

    @Test("R18: then never starts the replacement of a run disposed by the first run's completion hook")
    func R18_thenDisposedOnCompletion() {
        let net = CountingNet()
        let interrupter = Locked<(any Disposable)?>(nil)
        let first = SignalProducer<Int, ProbeError>.empty.on(completed: { interrupter.value?.dispose() })
        let recorder = first.then(net.producer).startWithSignal { signal, disposable in
            interrupter.value = disposable
            return signal.record()
        }
        #expect(recorder.events == [.interrupted])
        #expect(net.starts.value == 0)
    }

    @Test("R18: flatMapError never starts the recovery of a run disposed by the failure hook")
    func R18_flatMapErrorDisposedOnFailure() {
        let net = CountingNet()
        let interrupter = Locked<(any Disposable)?>(nil)
        let first = SignalProducer<Int, ProbeError>(error: .boom).on(failed: { _ in interrupter.value?.dispose() })
        let recorder = first.flatMapError { _ in net.producer }.startWithSignal { signal, disposable in
            interrupter.value = disposable
            return signal.record()
        }
        #expect(recorder.events == [.interrupted])
        #expect(net.starts.value == 0)
    }

    @Test("R18: retry(upTo:) then take(first: 1) makes one attempt (RxSwift#2298)")
    func R18_retryThenTakeFirst() {
        let attempts = Locked(0)
        let producer = SignalProducer<Int, ProbeError> { observer, _ in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            observer.send(value: attempt)
            observer.send(error: .boom)
        }
        let (recorder, _) = producer.retry(upTo: 5).take(first: 1).record()
        #expect(recorder.events == [.value(1), .completed])
        #expect(attempts.value == 1)
    }

    @Test(
        "R18: flatten never starts the next inner producer once take(first: 1) disposed the run",
        arguments: [FlattenStrategy.concat, .concurrent(limit: 1), .latest, .merge])
    func R18_flattenThenTakeFirst(strategy: FlattenStrategy) {
        let net = CountingNet()
        let first = SignalProducer<Int, ProbeError>(value: 5)
        let outer = SignalProducer<SignalProducer<Int, ProbeError>, ProbeError>(values: [first, net.producer])
        let (recorder, _) = outer.flatten(strategy).take(first: 1).record()
        #expect(recorder.events == [.value(5), .completed])
        #expect(net.starts.value == 0)
    }

    @Test("R18: combineLatest never starts a later input once an earlier one ended the run")
    func R18_combineLatestLaterInput() {
        let net = CountingNet()
        let failing = SignalProducer<Int, ProbeError>(error: .boom)
        let (recorder, _) = failing.combineLatest(with: net.producer).map { $0 + $1 }.record()
        #expect(recorder.events == [.failed(.boom)])
        #expect(net.starts.value == 0)
    }

    @Test("R18: a follow-up racing a dispose on another thread is never left running (threads from a barrier)")
    func R18_followUpRacingDisposeStress() {
        // A start that begins after dispose() returned is the one the completing thread had committed to
        // before the dispose (clause 4.2's exception): it finds its lifetime already ended.
        let violations = Locked(0)
        let starts = Locked(0)
        let ends = Locked(0)
        for _ in 0..<1_000 {
            let server = ManualServer<Int, Int, ProbeError>()
            let returned = Flag()
            let net = SignalProducer<Int, ProbeError> { observer, lifetime in
                starts.increment(by: 1)
                if returned.isSet && !lifetime.hasEnded { violations.increment(by: 1) }
                lifetime.observeEnded { ends.increment(by: 1) }
                observer.send(value: 9)
            }
            let startsBefore = starts.value
            let run = server.producer(0).concat(net).start()
            let request = server.requests[0]
            raceFromBarrier(threads: 2) { thread in
                if thread == 0 {
                    request.complete()
                } else {
                    run.dispose()
                    returned.set()
                }
            }
            #expect(starts.value - startsBefore <= 1)
            #expect(request.isDisposed)
        }
        #expect(violations.value == 0)
        #expect(ends.value == starts.value)
    }
}
