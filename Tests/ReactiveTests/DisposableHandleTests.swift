import Dispatch
import Foundation
import Reactive
import TestSupport
import Testing

/// `+=` adds a member without a removal handle; `add(_:)` returns a light handle; a run's disposable reads
/// the run's signal instead of keeping a flag of its own.
@Suite("Disposable handles")
struct DisposableHandleTests {
    @Test("R9: a removal handle reports disposed once its member has left, by the handle or with the composite")
    func R9_handleState() {
        let composite = CompositeDisposable()
        let first = AnyDisposable()
        let second = AnyDisposable()
        let firstHandle = composite.add(first)
        let secondHandle = composite.add(second)
        #expect(firstHandle?.isDisposed == false)
        firstHandle?.dispose()
        firstHandle?.dispose()
        #expect(firstHandle?.isDisposed == true)
        #expect(secondHandle?.isDisposed == false)
        composite.dispose()
        #expect(secondHandle?.isDisposed == true)
        #expect(!first.isDisposed)
        #expect(second.isDisposed)
        // A handle outliving its composite does nothing.
        var handle: (any Disposable)?
        do {
            let transient = CompositeDisposable()
            handle = transient.add(AnyDisposable())
        }
        #expect(handle?.isDisposed == true)
        handle?.dispose()
    }

    @Test("R3: a member removed through its handle is released after unlocking, so its deinit may re-enter")
    func R3_removedMemberReleasedOutsideTheLock() {
        final class Reentrant: Disposable {
            let composite: CompositeDisposable
            let log: Locked<[String]>
            init(composite: CompositeDisposable, log: Locked<[String]>) {
                self.composite = composite
                self.log = log
            }
            var isDisposed: Bool { false }
            func dispose() { log.append("disposed") }
            deinit {
                let log = log
                log.append("deinit, composite disposed \(composite.isDisposed)")
                composite += { log.append("cleanup") }
            }
        }
        let log = Locked<[String]>([])
        let finished = finishesWithin(seconds: 10) {
            let composite = CompositeDisposable()
            let handle = composite.add(Reentrant(composite: composite, log: log))
            handle?.dispose()
            composite.dispose()
        }
        #expect(finished, "deadlock: a removed member was released under the composite's lock")
        #expect(log.value == ["deinit, composite disposed false", "cleanup"])
    }

    @Test("R9: += on a disposed composite or an ended lifetime disposes at once; on Lifetime.never, never")
    func R9_addWithoutHandle() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = AnyDisposable()
        composite += late
        #expect(late.isDisposed)
        let ran = Locked(0)
        Lifetime.ended += { ran.increment(by: 1) }
        #expect(ran.value == 1)
        let kept = AnyDisposable()
        Lifetime.never += kept
        Lifetime.never += { ran.increment(by: 1) }
        #expect(!kept.isDisposed)
        #expect(ran.value == 1)
        let (lifetime, token) = Lifetime.make()
        let member = AnyDisposable()
        lifetime += member
        lifetime += { ran.increment(by: 1) }
        token.dispose()
        #expect(member.isDisposed)
        #expect(ran.value == 2)
    }

    @Test("R9: a run's disposable reports disposed once the run ended by itself; disposing it then is harmless")
    func R9_runDisposableState() {
        let (recorder, disposable) = SignalProducer<Int, Never>(value: 1).record()
        #expect(disposable.isDisposed)
        disposable.dispose()
        #expect(recorder.events == [.value(1), .completed])
        let probe = ProducerProbe()
        let (open, openDisposable) = probe.producer.record()
        #expect(!openDisposable.isDisposed)
        openDisposable.dispose()
        #expect(openDisposable.isDisposed)
        openDisposable.dispose()
        #expect(open.events == [.interrupted])
        #expect(probe.allRunsEnded)
    }

    @Test("R9: a producer's work that lets go of its input stays alive while its run's disposable is held")
    func R9_runHeldByItsDisposable() {
        let (recorder, disposable) = SignalProducer<Int, Never>.never.record()
        #expect(recorder.events == [])
        #expect(!disposable.isDisposed)
        disposable.dispose()
        #expect(recorder.events == [.interrupted])
    }
}
