import Foundation
import Reactive
import Stapler
import StaplerSQLite

// S5: a burst of 1,000 writes, each renaming a row a shown list holds, against a list coalescing for 16 ms
// on a real `QueueScheduler`: how many times the list reads its window. The issue's limit, for a burst that
// lasts 100 ms: ⌈100 ms ÷ 16 ms⌉ + 1 = 8 reads. On the memory store the writes are paced to one every
// 100 µs; a SQLite commit takes longer than that, so its burst lasts as long as 1,000 commits take, and
// its limit is computed from that duration. Runs through `Profile` only; the test suite counts the same
// on a test scheduler (`StoreListBurstTests`).

/// A store that counts the reads made through it.
final class ReadCountingStore<Row: StoreRow>: LocalStore, @unchecked Sendable {
    let base: any LocalStore<Row>
    // Guarded by `lock`.
    private var count = 0
    private let lock = NSLock()

    init(_ base: any LocalStore<Row>) { self.base = base }

    var reads: Int { lock.withLock { count } }
    var schema: StoreSchema<Row> { base.schema }
    var dataVersion: UInt64 { base.dataVersion }
    var changes: Signal<StoreChange, Never> { base.changes }
    func noticeExternalCommits() { base.noticeExternalCommits() }

    @discardableResult
    func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange { try base.write(body) }

    func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result {
        lock.withLock { count += 1 }
        return try base.read(body)
    }
}

/// Runs the burst on `base` (holding posts 0..<1,000); returns the reads, the burst's duration and the limit.
func burst(on base: any LocalStore<StoredPost>, paced: Bool) -> (reads: Int, milliseconds: Double, limit: Int) {
    let store = ReadCountingStore(base)
    let latency = 16.0
    let list = Paginator(
        store: store, collection: "feed", pageSize: 100, maxCoalescingLatency: .milliseconds(Int(latency)),
        scheduler: QueueScheduler(label: "S5"))
    let before = store.reads
    let start = DispatchTime.now().uptimeNanoseconds
    for round in 0..<1_000 {
        _ = try! store.write { transaction in
            transaction.upsert(StoredPost(id: round % 100, title: "Burst \(round)"))
        }
        if paced {
            let due = start + UInt64(round + 1) * 100_000
            while DispatchTime.now().uptimeNanoseconds < due {}
        }
    }
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    // Every reload the burst caused has run once the list has been quiet for a few latencies.
    usleep(200_000)
    check(list.items.value.first?.title == "Burst 900", "S5 shows \(String(describing: list.items.value.first))")
    return (store.reads - before, milliseconds, Int((milliseconds / latency).rounded(.up)) + 1)
}

/// S5 on the memory store and on a SQLite file, 1,000 posts each.
func storeBurstScenarios() -> [Scenario] {
    [
        Scenario("S5-burst", size: 1_000) { size, meter in
            let memory = MemoryStore(schema: feedSchema)
            try! memory.write { transaction in
                transaction.upsert(contentsOf: (0..<size).map { StoredPost(id: $0, title: "Post \($0)") })
            }
            let path = NSTemporaryDirectory() + "stapler-bench-\(getpid())-burst.sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let sqlite = try! SQLiteStore(path: path, schema: feedSchema)
            try! sqlite.write { transaction in
                transaction.upsert(contentsOf: (0..<size).map { StoredPost(id: $0, title: "Post \($0)") })
            }
            meter.start()
            let inMemory = burst(on: memory, paced: true)
            let onFile = burst(on: sqlite, paced: false)
            meter.stop()
            for (name, figure) in [("memory", inMemory), ("sqlite", onFile)] {
                print(
                    "S5 \(name): 1,000 writes in \(String(format: "%.1f", figure.milliseconds)) ms, "
                        + "\(figure.reads) window reads (limit \(figure.limit))")
            }
            meter.record(inMemory.reads)
        }
    ]
}
