import Reactive
import TestSupport
import Testing

/// Proves that the stress harness and Thread Sanitizer catch a real race (a control for the racing-threads tests).
///
/// Skipped by default. Run it once whenever the harness changes:
/// `STAPLER_RACY_CONTROL=1 swift test --sanitize=thread --scratch-path .build-tsan --filter RacyControlTests`.
/// TSan must report a data race on `Unsynchronized.value` (and the run fails); without TSan the count
/// usually comes out short.
@Suite("Racy control (opt-in)")
struct RacyControlTests {
    static let enabled = environmentFlag("STAPLER_RACY_CONTROL")

    @Test("control: observers of two independent signals share an unsynchronised counter", .enabled(if: enabled))
    func racyControl() {
        // The same probe as the R6 test, but nothing orders the two signals' deliveries.
        let perThread = 200_000
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let (second, secondInput) = Signal<Int, Never>.pipe()
        let counter = Unsynchronized(0)
        first.observeValues { _ in counter.value += 1 }
        second.observeValues { _ in counter.value += 1 }
        raceFromBarrier(threads: 2) { thread in
            let input = thread == 0 ? firstInput : secondInput
            for value in 0..<perThread { input.send(value: value) }
        }
        #expect(counter.value == 2 * perThread, "lost updates: the race is real")
    }
}
