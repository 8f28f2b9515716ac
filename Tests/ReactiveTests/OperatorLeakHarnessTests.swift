import Reactive
import TestSupport
import Testing

/// Proves the R8 leak harness used by every operator suite can fail: deliberately leaky operators are
/// reported as such.
@Suite("R8 leak harness")
struct OperatorLeakHarnessTests {
    /// Keeps whatever it is given forever.
    private static let hoard = Locked<[LifetimeTracker.Tracked]>([])

    @Test("R8: an operator that keeps its token forever is reported")
    func R8_keptTokenIsReported() {
        let report = leakReport(.completed) { signal, _, token in
            Self.hoard.append(token)
            return signal.map { $0 }
        }
        #expect(report.liveTokens == 1)
        #expect(report != .clean)
    }

    @Test("R8: an operator that never stops observing its upstream is reported on disposal")
    func R8_unstoppedObservationIsReported() {
        let report = leakReport(.disposed) { signal, _, _ in
            Signal<Int, ProbeError> { output, _ in
                signal.observe(output)  // not tied to the lifetime: never removed
            }
        }
        #expect(!report.upstreamsEnded)
    }

    @Test("R8: a producer operator that never interrupts its upstream run is reported on disposal")
    func R8_uninterruptedRunIsReported() {
        let report = producerLeakReport(.disposed) { producer, _, _ in
            SignalProducer<Int, ProbeError> { observer, _ in
                producer.start(observer)  // not tied to the lifetime: never interrupted
            }
        }
        #expect(!report.upstreamsEnded)
        #expect(report.liveTokens == 0)
    }
}
