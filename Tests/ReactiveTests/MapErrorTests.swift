import Reactive
import TestSupport
import Testing

@Suite("mapError, promoteError, flatMapError")
struct MapErrorTests {
    enum Wrapped: Error, Equatable { case wrapped(ProbeError) }

    @Test("mapError transforms the failure and passes values and other terminals", arguments: Terminal.allCases)
    func mapErrorHistory(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recorder = signal.mapError(Wrapped.wrapped).record()
        input.send(value: 1)
        terminal.send(to: input)
        let expectedTerminal: Signal<Int, Wrapped>.Event =
            switch terminal {
            case .failed: .failed(.wrapped(.boom))
            case .completed: .completed
            case .interrupted: .interrupted
            }
        #expect(recorder.events == [.value(1), expectedTerminal])
    }

    @Test("promoteError keeps every event of a signal that cannot fail")
    func promoteError() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.promoteError(ProbeError.self).record()
        input.send(value: 1)
        input.sendCompleted()
        #expect(recorder.events == [.value(1), .completed])
        #expect(
            SignalProducer<Int, Never>(value: 3).promoteError(ProbeError.self).record().0.events == [
                .value(3), .completed,
            ]
        )
    }

    @Test("the mapError producer overload maps every run's failure")
    func producerMapError() {
        let producer = SignalProducer<Int, ProbeError>(error: .other).mapError(Wrapped.wrapped)
        #expect(producer.record().0.events == [.failed(.wrapped(.other))])
        #expect(producer.record().0.events == [.failed(.wrapped(.other))])
    }

    @Test("flatMapError continues with the recovery run after a failure")
    func flatMapErrorRecovers() {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let errors = Locked<[ProbeError]>([])
        let recorder = signal.flatMapError { error -> SignalProducer<Int, Never> in
            errors.append(error)
            return SignalProducer(values: [10, 20])
        }.record()
        input.send(value: 1)
        input.send(error: .boom)
        input.send(value: 2)
        #expect(recorder.events == [.value(1), .value(10), .value(20), .completed])
        #expect(errors.value == [.boom])
    }

    @Test(
        "flatMapError passes completion and interruption without recovering",
        arguments: [Terminal.completed, .interrupted])
    func flatMapErrorPassesOtherTerminals(terminal: Terminal) {
        let (signal, input) = Signal<Int, ProbeError>.pipe()
        let recoveries = Locked(0)
        let recorder = signal.flatMapError { _ -> SignalProducer<Int, ProbeError> in
            recoveries.increment(by: 1)
            return .empty
        }.record()
        input.send(value: 1)
        terminal.send(to: input)
        #expect(recorder.events == [.value(1), terminal.event()])
        #expect(recoveries.value == 0)
    }

    @Test("flatMapError fails if the recovery run fails; disposal interrupts the recovery run")
    func flatMapErrorRecoveryFailsAndDisposes() {
        let failing = SignalProducer<Int, ProbeError>(error: .boom).flatMapError { _ in
            SignalProducer<Int, ProbeError>(error: .other)
        }
        #expect(failing.record().0.events == [.failed(.other)])

        let recovery = ProducerProbe()
        let (recorder, disposable) = SignalProducer<Int, ProbeError>(error: .boom)
            .flatMapError { _ in recovery.producer }
            .record()
        recovery.runs[0].observer.send(value: 5)
        disposable.dispose()
        #expect(recorder.events == [.value(5), .interrupted])
        #expect(recovery.allRunsEnded)
    }

    @Test("R8: mapError and flatMapError free their closures and runs", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(
            leakReport(ending) { s, _, token in
                s.mapError { e -> Wrapped in
                    _ = token; return .wrapped(e)
                }
            } == .clean)
        #expect(
            leakReport(ending) { s, _, token in
                s.flatMapError { _ -> SignalProducer<Int, Never> in
                    _ = token; return SignalProducer(value: 0)
                }
            } == .clean
        )
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.mapError { e -> Wrapped in
                    _ = token; return .wrapped(e)
                }
            } == .clean)
        #expect(
            producerLeakReport(ending) { p, _, token in
                p.flatMapError { _ -> SignalProducer<Int, ProbeError> in
                    _ = token; return SignalProducer(value: 0)
                }
            } == .clean
        )
    }
}
