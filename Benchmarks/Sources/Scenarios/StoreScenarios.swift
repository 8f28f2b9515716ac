import Foundation
import Stapler
import StaplerSQLite

// S1-S3: the local store against the floor of raw SQLite (issue 34). Each reads or writes pages of 100 rows
// of a collection of N posts ordered by rank, in a file built once per process (StoreFixture.swift):
// S1 reads pages by keyset, S2 writes pages of 100 existing rows (a new title, the same rank) in one
// transaction each, S3 reads a collection ordered by a localized title. Beside the SQLite store run the
// floor (the same statements through SQLite's C API), the rows' decoding or encoding alone (what the
// store adds to the floor by design: JSON), and the memory store.

/// The pages S1 and S3 read in one iteration: 1,000 (100,000 rows), fewer in the smoke run.
func readPages(_ size: Int) -> Int { max(1, min(1_000, size / 1_000)) }

/// The pages S2 writes in one iteration: 100, spread over the collection; one in the smoke run.
func writePages(_ size: Int) -> Int { max(1, min(100, size / 10_000)) }

/// Builds the feed's SQLite file of `size` posts, unless this process has it.
func prepareFeed(_ size: Int) { _ = FixtureFiles.shared.feed(size) }

/// Builds the feed's memory store of `size` posts, unless this process has it.
func prepareMemoryFeed(_ size: Int) { _ = FixtureFiles.shared.memoryFeed(size) }

/// S1 and S2 at 1M posts, then S3 at 100k.
public func storeScenarios() -> [Scenario] {
    s1(size: 1_000_000) + s2(size: 1_000_000) + s3(size: 100_000)
}

/// S1: the first `readPages` pages of the feed, each read after the last row of the one before.
func s1(size: Int) -> [Scenario] {
    [
        Scenario("S1-sqlite-N=\(size)", size: size, prepare: prepareFeed) { size, meter in
            let store = FixtureFiles.shared.feed(size).store
            let pages = readPages(size)
            var position = StorePosition.first
            var total = 0
            meter.start()
            for _ in 0..<pages {
                let page = try! store.page(of: "feed", position, limit: 100)
                for entry in page.entries { total &+= entry.row.id }
                position = .after(page.entries.last!.cursor)
            }
            meter.stop()
            check(total == (pages * 100) * (pages * 100 - 1) / 2, "S1-sqlite read \(total)")
        },
        Scenario("S1-floor-N=\(size)", size: size, prepare: prepareFeed) { size, meter in
            let floor = FixtureFiles.shared.feed(size).floor
            let pages = readPages(size)
            var cursor: [UInt8]?
            var bytes = 0
            meter.start()
            for _ in 0..<pages {
                cursor = floor.page(after: cursor, limit: 100) { body in bytes &+= body.count }
            }
            meter.stop()
            check(bytes > pages * 100 * 20, "S1-floor read \(bytes) bytes")
        },
        Scenario("S1-decode-N=\(size)", size: size, prepare: prepareFeed) { size, meter in
            let floor = FixtureFiles.shared.feed(size).floor
            let pages = readPages(size)
            var pagesOfBodies: [[[UInt8]]] = []
            var cursor: [UInt8]?
            for _ in 0..<pages {
                var bodies: [[UInt8]] = []
                cursor = floor.page(after: cursor, limit: 100) { bodies.append(Array($0)) }
                pagesOfBodies.append(bodies)
            }
            var total = 0
            meter.start()
            // As the store's JSON coding decodes a page's rows: one decoder per read, each row's bytes copied
            // into a `Data`.
            for bodies in pagesOfBodies {
                let decoder = JSONDecoder()
                for body in bodies { total &+= try! decoder.decode(StoredPost.self, from: Data(body)).id }
            }
            meter.stop()
            check(total == (pages * 100) * (pages * 100 - 1) / 2, "S1-decode \(total)")
        },
        Scenario("S1-memory-N=\(size)", size: size, prepare: prepareMemoryFeed) { size, meter in
            let store = FixtureFiles.shared.memoryFeed(size)
            let pages = readPages(size)
            var position = StorePosition.first
            var total = 0
            meter.start()
            for _ in 0..<pages {
                let page = try! store.page(of: "feed", position, limit: 100)
                for entry in page.entries { total &+= entry.row.id }
                position = .after(page.entries.last!.cursor)
            }
            meter.stop()
            check(total == (pages * 100) * (pages * 100 - 1) / 2, "S1-memory read \(total)")
        },
    ]
}

/// The first position of each page S2 writes: `writePages` pages spread evenly over the feed.
func writtenPageStarts(_ size: Int) -> [Int] {
    let pages = writePages(size)
    let stride = max(1, size / 100 / pages)
    return (0..<pages).map { $0 * stride * 100 }
}

/// The rows of the page S2 writes from `start`: the posts there with a new title.
func editedPage(from start: Int) -> [StoredPost] {
    (start..<start + 100).map { StoredPost(id: $0, title: "Post \($0), edited") }
}

/// The pages S2-floor writes: the rows of each page S2 writes with their keys, sort tuples and bodies
/// read and encoded beforehand (setup only).
func floorPages(_ fixture: SQLiteFixture, size: Int) -> [[SQLiteFloor.WrittenRow]] {
    let starts = writtenPageStarts(size)
    let written = Set(starts.flatMap { $0..<$0 + 100 })
    let members = fixture.floor.members { written.contains($0) }
    let encoder = JSONEncoder()
    let rows = starts.flatMap(editedPage).enumerated().map { index, post in
        SQLiteFloor.WrittenRow(
            key: members[index].key, sortKey: members[index].sortKey, body: Array(try! encoder.encode(post)))
    }
    return (0..<starts.count).map { Array(rows[$0 * 100..<$0 * 100 + 100]) }
}

/// S2: `writePages` pages of 100 existing posts written back with a new title, one transaction each.
func s2(size: Int) -> [Scenario] {
    [
        Scenario("S2-sqlite-N=\(size)", size: size, prepare: prepareFeed) { size, meter in
            let store = FixtureFiles.shared.feed(size).store
            let pages = writtenPageStarts(size).map(editedPage)
            let before = store.dataVersion
            meter.start()
            for page in pages {
                try! store.write { transaction in transaction.upsert(contentsOf: page) }
            }
            meter.stop()
            check(store.dataVersion == before + UInt64(pages.count), "S2-sqlite committed \(store.dataVersion)")
        },
        Scenario("S2-floor-N=\(size)", size: size, prepare: { _ = FixtureFiles.shared.floorWrites($0) }) {
            size, meter in
            let fixture = FixtureFiles.shared.feed(size)
            let pages = FixtureFiles.shared.floorWrites(size)
            var version: Int64 = 0
            meter.start()
            for page in pages { version = fixture.floor.write(page) }
            meter.stop()
            check(version > 0, "S2-floor committed nothing")
        },
        Scenario("S2-encode-N=\(size)", size: size) { size, meter in
            let pages = writtenPageStarts(size).map(editedPage)
            var bytes = 0
            meter.start()
            // As the store's JSON coding encodes each row: an encoder per row, its `Data` copied into bytes.
            for page in pages {
                for post in page { bytes &+= Array(try! JSONEncoder().encode(post)).count }
            }
            meter.stop()
            check(bytes > pages.count * 100 * 20, "S2-encode wrote \(bytes) bytes")
        },
        Scenario("S2-memory-N=\(size)", size: size, prepare: prepareMemoryFeed) { size, meter in
            let store = FixtureFiles.shared.memoryFeed(size)
            let pages = writtenPageStarts(size).map(editedPage)
            let before = store.dataVersion
            meter.start()
            for page in pages {
                try! store.write { transaction in transaction.upsert(contentsOf: page) }
            }
            meter.stop()
            check(store.dataVersion == before + UInt64(pages.count), "S2-memory committed \(store.dataVersion)")
        },
    ]
}

/// S3: the first `readPages` pages of a collection ordered by a localized title: SQLite's collation compares
/// the tuples each page's index search meets.
func s3(size: Int) -> [Scenario] {
    [
        Scenario(
            "S3-localized-N=\(size)", size: size, prepare: { _ = FixtureFiles.shared.titles($0) }
        ) { size, meter in
            let store = FixtureFiles.shared.titles(size).store
            let pages = readPages(size)
            var position = StorePosition.first
            var count = 0
            meter.start()
            for _ in 0..<pages {
                let page = try! store.page(of: "titles", position, limit: 100)
                count += page.entries.count
                position = .after(page.entries.last!.cursor)
            }
            meter.stop()
            check(count == pages * 100, "S3-localized read \(count) rows")
        }
    ]
}
