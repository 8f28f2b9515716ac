import Reactive
import Stapler
import TestSupport
import Testing

/// The figure for bursts, counted on a test scheduler: 1,000 writes in 100 ms re-read a shown list at
/// most ⌈100 ms ÷ the coalescing latency⌉ + 1 times (P45, R22).
@Suite struct StoreListBurstTests {
    @Test(
        "P45, R22: 1,000 writes in 100 ms re-read a shown list at most ⌈100 ms ÷ latency⌉ + 1 times",
        arguments: listStoreKinds, [4, 16, 30, 100])
    func p45BurstReadsAreBoundedByTheLatency(kind: StoreKind, latencyMilliseconds: Int) throws {
        let setup = try StoreListSetup(kind)
        let list = setup.list(latency: .milliseconds(latencyMilliseconds))
        list.loadNextPage()
        list.loadNextPage()
        let log = UpdateLog(list)
        let reads = setup.probe.reads.count
        // One write every 100 µs, each renaming a row the list shows.
        for round in 0..<1_000 {
            let id = 71 + round % 30
            try setup.fixture.write { transaction in
                transaction.upsert(Post(id: id, createdAt: 10 * id, title: "r\(round)"))
            }
            setup.scheduler.advance(by: .microseconds(100))
        }
        setup.scheduler.advance(by: .milliseconds(latencyMilliseconds))
        let windowReads = setup.probe.reads.count - reads
        let limit = (100 + latencyMilliseconds - 1) / latencyMilliseconds + 1
        #expect(windowReads >= 1)
        #expect(windowReads <= limit, "\(windowReads) reads, limit \(limit)")
        #expect(log.failures.isEmpty)
        // The last rename of each row shows: post 71 + k was renamed last in round 990 + k (k < 10), else
        // 960 + k.
        #expect(list.items.value.map(\.title) == (0..<30).reversed().map { "r\($0 < 10 ? 990 + $0 : 960 + $0)" })
    }
}
