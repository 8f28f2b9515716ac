import Stapler
import StaplerSQLite
import Testing

/// A SQLite file opened with a schema that registers collections its file did not know, or no longer
/// registers some it knew.
@Suite struct SQLiteCollectionsTests {
    static let feedOnly = StoreSchema<Post>(
        table: "post", collections: [StoreCollection("feed", orderedBy: [.descending(\.createdAt)])])

    @Test("A query collection registered in a later launch is filled with the stored rows that match it")
    func collectionRegisteredLaterIsFilledAtOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("feed.sqlite")
        let first = try SQLiteStore(path: path, schema: Self.feedOnly)
        try first.write { transaction in
            for id in 1...10 {
                transaction.upsert(Post(id: id, createdAt: 10 * id, title: "t\(id)", starred: id % 3 == 0))
            }
        }
        let second = try SQLiteStore(path: path, schema: .storeS)
        #expect(try second.page(of: "starred", .first, limit: 10).ids == [3, 6, 9])
        #expect(try second.walk("oldestNullsFirst", pageSize: 4) == Array(1...10))
        #expect(try second.count(of: "mediated") == 0)
        try second.write { transaction in transaction.replaceWindow(of: "mediated", rows: [Post.numbered(11)]) }
        // Reopened with the feed only: the other collections' membership is dropped, so nothing else holds
        // post 11 and a later refresh of the feed could delete it.
        _ = try SQLiteStore(path: path, schema: Self.feedOnly)
        let raw = RawSQLite(path)
        #expect(raw.integer("SELECT COUNT(*) FROM stapler_members WHERE collection <> 'feed'") == 0)
        #expect(raw.integer("SELECT COUNT(*) FROM stapler_members WHERE collection = 'feed'") == 11)
        let third = try SQLiteStore(path: path, schema: .storeS)
        #expect(try third.page(of: "starred", .first, limit: 10).ids == [3, 6, 9])
        #expect(try third.count(of: "mediated") == 0)
    }

    @Test("A localized collection's index survives reopening, and a removed one's index is dropped")
    func localizedIndexFollowsTheSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("titles.sqlite")
        let store = try SQLiteStore(path: path, schema: .titles)
        try store.write { transaction in
            for (offset, title) in ["b", "B", "a"].enumerated() {
                transaction.upsert(Post(id: offset + 1, createdAt: nil, title: title))
            }
        }
        let reopened = try SQLiteStore(path: path, schema: .titles)
        #expect(try reopened.walk("localized", pageSize: 2) == [3, 1, 2])
        let indexes = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'stapler%order'"
        #expect(RawSQLite(path).integer(indexes) == 3)
        _ = try SQLiteStore(path: path, schema: Self.feedOnly)
        #expect(RawSQLite(path).integer(indexes) == 1)
    }

    @Test("A store opened read-only reads a localized collection whose index its file does not have yet")
    func readOnlyFileWithoutTheLocalizedIndexReads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("titles.sqlite")
        let writer = try SQLiteStore(path: path, schema: Self.feedOnly)
        try writer.write { transaction in transaction.upsert(Post.numbered(1)) }
        var options = SQLiteStore<Post>.Options()
        options.readOnly = true
        let reader = try SQLiteStore(path: path, schema: .titles, options: options)
        #expect(try reader.page(of: "localized", .first, limit: 10).ids == [])
        #expect(try reader.page(of: "localizedDescending", .last, limit: 10).ids == [])
    }
}
