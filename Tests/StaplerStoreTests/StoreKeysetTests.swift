import Stapler
import Testing

/// Keyset reads over Store S (posts 1…100, newest first, pages of 10) on every store.
@Suite struct StoreKeysetTests {
    @Test("P44: a keyset walk of the feed serves posts 100…1, each once", arguments: StoreKind.allCases)
    func p44KeysetWalkServesEachPostOnce(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        #expect(try store.walk("feed", pageSize: 10) == Array((1...100).reversed()))
        #expect(try store.walk("oldestNullsFirst", pageSize: 7) == Array(1...100))
        #expect(try store.count(of: "feed") == 100)
    }

    @Test(
        "P44: posts inserted above the loaded rows shift nothing: the next page is 80…71", arguments: StoreKind.allCases
    )
    func p44InsertAboveKeepsTheNextPage(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        let first = try store.page(of: "feed", .first, limit: 10)
        let second = try store.page(of: "feed", .after(first.entries.last!.cursor), limit: 10)
        #expect(first.ids + second.ids == Array((81...100).reversed()))
        try store.write { transaction in transaction.upsert(contentsOf: (101...105).map(Post.numbered)) }
        let third = try store.page(of: "feed", .after(second.entries.last!.cursor), limit: 10)
        #expect(third.ids == Array((71...80).reversed()))
        let top = try store.page(of: "feed", .before(first.entries.first!.cursor), limit: 10)
        #expect(top.ids == [105, 104, 103, 102, 101])
    }

    @Test("P44: deleting loaded posts 95 and 85 leaves the next page 80…71", arguments: StoreKind.allCases)
    func p44DeleteAboveKeepsTheNextPage(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        let shown = try store.page(of: "feed", .first, limit: 20)
        try store.write { transaction in
            transaction.delete(95)
            transaction.delete(85)
        }
        #expect(
            try store.page(of: "feed", .after(shown.entries.last!.cursor), limit: 10).ids == Array((71...80).reversed())
        )
        #expect(try store.page(of: "feed", .first, limit: 20).ids.contains(95) == false)
        #expect(try store.row(95) == nil)
        #expect(try store.count(of: "feed") == 98)
    }

    @Test("P44: posts 41…50 tied on createdAt are each served once by pages of 3", arguments: StoreKind.allCases)
    func p44TiedPostsAreServedOnce(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        try store.write { transaction in
            for id in 41...50 { transaction.upsert(Post(id: id, createdAt: 5, title: "t\(id)")) }
        }
        let walk = try store.walk("feed", pageSize: 3)
        // createdAt 5 sorts below post 1 (createdAt 10); ties go by id, in the order's direction.
        #expect(walk == Array((51...100).reversed()) + Array((1...40).reversed()) + Array((41...50).reversed()))
        #expect(Set(walk).count == 100)
    }

    @Test(
        "P44: posts with a NULL createdAt come after every dated post, then the list ends",
        arguments: StoreKind.allCases)
    func p44NullsComeLast(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        try store.write { transaction in
            for id in 1...5 { transaction.upsert(Post(id: id, createdAt: nil, title: "t\(id)")) }
        }
        #expect(try store.walk("feed", pageSize: 10) == Array((6...100).reversed()) + [5, 4, 3, 2, 1])
        // The ascending collection places NULLs first, as it declares.
        #expect(try store.walk("oldestNullsFirst", pageSize: 4) == [1, 2, 3, 4, 5] + Array(6...100))
        let last = try store.page(of: "feed", .last, limit: 3)
        #expect(last.ids == [3, 2, 1])
    }

    @Test("P44: a post whose createdAt changes moves, and the walk serves it once", arguments: StoreKind.allCases)
    func p44MovedPostIsServedOnce(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.seed(1...100)
        let shown = try store.page(of: "feed", .first, limit: 20)
        try store.write { transaction in
            transaction.upsert(Post(id: 60, createdAt: 2000, title: "t60"))
            transaction.upsert(Post(id: 85, createdAt: 100, title: "t85"))
        }
        #expect(try store.page(of: "feed", .first, limit: 1).ids == [60])
        var rest: [Int] = []
        var position = StorePosition.after(shown.entries.last!.cursor)
        while true {
            let page = try store.page(of: "feed", position, limit: 10)
            rest += page.ids
            guard let last = page.entries.last else { break }
            position = .after(last.cursor)
        }
        let expected = Array((61...80).reversed()) + Array((11...59).reversed()) + [85] + Array((1...10).reversed())
        #expect(rest == expected)
    }

    @Test("P72: an integer id 1 and a string id \"1\" are two different rows", arguments: StoreKind.allCases)
    func p72IntegerAndStringIdentitiesDiffer(kind: StoreKind) throws {
        let schema = StoreSchema<Tag>(table: "tag", collections: [StoreCollection("all", orderedBy: [])])
        let store = try StoreFixture(kind, schema: schema).store
        try store.write { transaction in
            transaction.upsert(Tag(key: .integer(1), label: "integer"))
            transaction.upsert(Tag(key: .text("1"), label: "string"))
        }
        #expect(try store.row(.integer(1))?.label == "integer")
        #expect(try store.row(.text("1"))?.label == "string")
        #expect(try store.count(of: "all") == 2)
        #expect(try store.page(of: "all", .first, limit: 5).rows.map(\.key) == [.integer(1), .text("1")])
        try store.write { transaction in transaction.delete(.text("1")) }
        #expect(try store.row(.integer(1))?.label == "integer")
        #expect(try store.row(.text("1")) == nil)
    }

    @Test(
        "P72: titles order the same in both stores, by UTF-8 bytes and by the app's comparator",
        arguments: StoreKind.allCases)
    func p72CollationOrderMatchesAcrossStores(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .titles).store
        let titles = ["b", "B", "a", "é", "e\u{301}", "Z"]
        try store.write { transaction in
            for (offset, title) in titles.enumerated() {
                transaction.upsert(Post(id: offset + 1, createdAt: nil, title: title))
            }
        }
        func walk(_ collection: String) throws -> [String] {
            try store.walk(collection, pageSize: 2).map { titles[$0 - 1] }
        }
        #expect(try walk("binary") == ["B", "Z", "a", "b", "e\u{301}", "é"])
        #expect(
            try walk("binary").map { Array($0.utf8) } == [
                [0x42], [0x5A], [0x61], [0x62], [0x65, 0xCC, 0x81], [0xC3, 0xA9],
            ])
        // Folded ties (b and B, é and e + U+0301) go by id, ascending.
        #expect(try store.walk("localized", pageSize: 2) == [3, 1, 2, 4, 5, 6])
        #expect(try store.walk("localizedDescending", pageSize: 2) == [6, 5, 4, 2, 1, 3])
        let middle = try store.page(of: "localized", .first, limit: 3)
        #expect(try store.page(of: "localized", .before(middle.entries.last!.cursor), limit: 5).ids == [3, 1])
    }

    @Test(
        "P72: localized titles with a NUL inside, or too long to be kept inline, order the same in both stores",
        arguments: StoreKind.allCases)
    func p72LocalizedTitlesWithEscapesAndLongTitles(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .titles).store
        // A NUL is stored escaped (inverted too, in the descending collection); strings over 15 bytes of
        // UTF-8 are not inline in Swift. Folded, they order "a" < "a\0" < "a\0b" < "a long…" < "a long…!" < "e\0".
        let titles = [
            "a\u{0}b", "a", "A\u{0}", "a long title kept out of line", "A LONG TITLE KEPT OUT OF LINE!", "é\u{0}",
        ]
        try store.write { transaction in
            for (offset, title) in titles.enumerated() {
                transaction.upsert(Post(id: offset + 1, createdAt: nil, title: title))
            }
        }
        #expect(try store.walk("localized", pageSize: 2) == [2, 3, 1, 4, 5, 6])
        #expect(try store.walk("localizedDescending", pageSize: 2) == [6, 5, 4, 1, 3, 2])
        let first = try store.page(of: "localizedDescending", .first, limit: 4)
        #expect(try store.page(of: "localizedDescending", .after(first.entries.last!.cursor), limit: 5).ids == [3, 2])
    }
}
