import Foundation
import Stapler
import StaplerSQLite

/// A row of the store benchmarks: a post of the feed, about 50 bytes of JSON.
public struct StoredPost: StoreRow, Equatable {
    /// The post's identity; also its place in the feed.
    public let id: Int
    /// The feed's order, smallest first (equal to `id`).
    public let rank: Int
    /// The post's title: `"Post <id>"` until a write edits it.
    public let title: String

    /// The identity the store keeps the row under.
    public var storeID: StoreID { .integer(Int64(id)) }

    /// Post `id`, titled `title`.
    public init(id: Int, title: String) {
        self.id = id
        self.rank = id
        self.title = title
    }
}

/// The schema of the store benchmarks: one collection, the feed, by rank.
let feedSchema = StoreSchema<StoredPost>(
    table: "post", collections: [StoreCollection("feed", orderedBy: [.ascending(\.rank)])])

/// The schema of the localized benchmark: the posts by title, compared by Swift's string order.
let titlesSchema = StoreSchema<StoredPost>(
    table: "post",
    collections: [StoreCollection("titles", orderedBy: [.ascending(\.title, collation: .localized)])])

/// The title of post `id` in the localized benchmark: accented, 8 to 16 bytes of UTF-8 (all but the longest
/// kept inline by Swift, with no allocation of their own), in an order unrelated to the identity.
func localizedTitle(_ id: Int) -> String {
    let words = ["Éclair", "apple", "Zèbre", "olive", "Ångström", "kiwi", "Öl", "éa"]
    return "\(words[id % words.count]) \((id &* 7919) % 100_003)"
}

/// A store file with `size` posts, built once per process and removed when it exits.
final class SQLiteFixture {
    let path: String
    let store: SQLiteStore<StoredPost>
    let collection: String
    /// The floor's connection, opened on first use (only the feed has one: the floor registers no
    /// collation, so it cannot prepare statements over a localized collection's index).
    lazy var floor = SQLiteFloor(path: path, collection: collection)

    /// A new file in the temporary directory with posts 0..<size in `schema`, written 10,000 to a transaction.
    init(size: Int, schema: StoreSchema<StoredPost>, title: (Int) -> String) {
        collection = schema.collections[0].name
        path = NSTemporaryDirectory() + "stapler-bench-\(getpid())-\(schema.collections[0].name)-\(size).sqlite"
        removeStoreFile(path)
        FixtureFiles.shared.paths.append(path)
        store = try! SQLiteStore(path: path, schema: schema)
        var next = 0
        while next < size {
            let end = min(size, next + 10_000)
            try! store.write { transaction in
                transaction.upsert(contentsOf: (next..<end).map { StoredPost(id: $0, title: title($0)) })
            }
            next = end
        }
    }
}

/// A memory store with `size` posts of the feed.
func memoryFixture(size: Int) -> MemoryStore<StoredPost> {
    let store = MemoryStore(schema: feedSchema)
    try! store.write { transaction in
        transaction.upsert(contentsOf: (0..<size).map { StoredPost(id: $0, title: "Post \($0)") })
    }
    return store
}

/// Deletes a store file and its `-wal` and `-shm` companions.
func removeStoreFile(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

/// The fixtures of this process, built on first use: a benchmark's iterations and its variants share them.
final class FixtureFiles: @unchecked Sendable {
    // Guarded by the benchmark's single thread: every scenario runs on one thread.
    static let shared = FixtureFiles()

    /// The files to remove when the process exits.
    var paths: [String] = [] {
        didSet {
            if oldValue.isEmpty {
                atexit { for path in FixtureFiles.shared.paths { removeStoreFile(path) } }
            }
        }
    }
    /// The SQLite fixtures, by schema name and size.
    var sqlite: [String: SQLiteFixture] = [:]
    /// The memory fixtures, by size.
    var memory: [Int: MemoryStore<StoredPost>] = [:]
    /// The pages S2-floor writes, by size.
    var floorPages: [Int: [[SQLiteFloor.WrittenRow]]] = [:]

    /// The pages S2-floor writes into the feed of `size` posts, read and encoded once.
    func floorWrites(_ size: Int) -> [[SQLiteFloor.WrittenRow]] {
        if let pages = floorPages[size] { return pages }
        let pages = Scenarios.floorPages(feed(size), size: size)
        floorPages[size] = pages
        return pages
    }

    /// The feed's SQLite fixture of `size` posts.
    func feed(_ size: Int) -> SQLiteFixture {
        sqlite("feed-\(size)") { SQLiteFixture(size: size, schema: feedSchema) { "Post \($0)" } }
    }

    /// The localized titles' SQLite fixture of `size` posts.
    func titles(_ size: Int) -> SQLiteFixture {
        sqlite("titles-\(size)") { SQLiteFixture(size: size, schema: titlesSchema, title: localizedTitle) }
    }

    /// The feed's memory fixture of `size` posts.
    func memoryFeed(_ size: Int) -> MemoryStore<StoredPost> {
        if let store = memory[size] { return store }
        let store = memoryFixture(size: size)
        memory[size] = store
        return store
    }

    private func sqlite(_ key: String, _ make: () -> SQLiteFixture) -> SQLiteFixture {
        if let fixture = sqlite[key] { return fixture }
        let fixture = make()
        sqlite[key] = fixture
        return fixture
    }
}
