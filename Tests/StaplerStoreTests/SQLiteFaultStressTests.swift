import CSQLite
import Foundation
import Reactive
import Stapler
import StaplerSQLite
import TestSupport
import Testing

/// A SQLite store under racing threads while a second connection keeps taking the write lock.
@Suite struct SQLiteFaultStressTests {
    @Test("P53: 4 threads read and write while another connection holds the lock; every failure is a StoreError")
    func p53RacingThreadsMeetOnlyStoreErrors() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        var options = SQLiteStore<Post>.Options()
        options.busyTimeout = .milliseconds(2)
        let store = try SQLiteStore(path: path, schema: .storeS, options: options)
        try store.seed(1...100)
        let scheduler = TestScheduler()
        let list = PostList(store: store, collection: "feed", pageSize: 20, scheduler: scheduler)
        // Used by the locker thread only, then by this thread after the race.
        nonisolated(unsafe) let other = RawSQLite(path)
        let foreign = Locked<[String]>([])
        raceFromBarrier(threads: 5) { thread in
            var generator = SystemRandomNumberGenerator()
            for round in 0..<60 {
                if thread == 4 {
                    // The locker: holds the write lock for a moment, over and over.
                    if other.execute("BEGIN IMMEDIATE") == SQLITE_OK {
                        usleep(200)
                        other.execute("COMMIT")
                    }
                    continue
                }
                let id = Int.random(in: 1...120, using: &generator)
                do {
                    if thread % 2 == 0 {
                        try store.write { transaction in
                            transaction.upsert(Post(id: id, createdAt: 10 * id, title: "\(thread)-\(round)"))
                        }
                    } else {
                        _ = try store.page(of: "feed", .first, limit: 20)
                    }
                } catch is StoreError {
                } catch {
                    foreign.append("\(error)")
                }
            }
        }
        // A window read that met the lock is read again after the latency.
        for _ in 0..<3 { scheduler.advance(by: .milliseconds(16)) }
        #expect(foreign.value.isEmpty)
        #expect(other.integer("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'") == 1)
        // The window keeps its last row: rows written above it join it.
        let stored = try store.walk("feed", pageSize: 50)
        #expect(list.ids.count >= 20)
        #expect(list.ids == Array(stored.prefix(list.ids.count)))
    }
}
