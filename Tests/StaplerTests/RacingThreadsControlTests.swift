import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// Proves that the paging stress tests' harness (`RacingThreads`, short bodies raced a thousand times)
/// lets Thread Sanitizer catch a race, as `RacyControlTests` does for `raceFromBarrier`.
///
/// Skipped by default. Run it once whenever the harness changes:
/// `STAPLER_RACY_CONTROL=1 swift test --sanitize=thread --scratch-path .build-tsan --filter RacingThreadsControlTests`.
/// TSan must report a data race on `Unsynchronized.value` (and the run fails).
///
/// The racers call the paginators (refresh, then the answer). Measured with Swift 6.3.1 on Linux: when
/// they only answer requests started before the race, TSan reported nothing in 1,000 rounds, although
/// no lock is held across the notification (an observer blocked in one paginator does not delay the
/// other's): the answer path orders the racers in TSan's eyes. Stress tests that race paginators should
/// therefore make the paginator calls inside the racing bodies too.
@Suite("Racy control: racing threads (opt-in)")
struct RacingThreadsControlTests {
    @Test(
        "control: observers of two paginators share an unsynchronised counter while two racers refresh and answer",
        .enabled(if: environmentFlag("STAPLER_RACY_CONTROL")))
    func racyControl() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        let counter = Unsynchronized(0)
        for _ in 0..<1_000 {
            // Two independent paginators: nothing orders their notifications, so the shared counter races.
            let servers = [OffsetServer(), OffsetServer()]
            let paginators = servers.map { server in
                Paginator(source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
            }
            for paginator in paginators {
                paginator.items.signal.observeValues { _ in counter.value += 1 }
            }
            racers.race { thread in
                paginators[thread].refresh()
                servers[thread].last?.succeed(page(0, 10, total: 10))
            }
        }
        #expect(counter.value == 2_000, "lost updates: the race is real")
    }
}
