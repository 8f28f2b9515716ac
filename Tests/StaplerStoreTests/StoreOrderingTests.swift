import Foundation
import Stapler
import TestSupport
import Testing

/// Sort tuples order like their values, for every kind of value, in every store; and readers racing
/// writers on real threads see each commit whole.
@Suite struct StoreOrderingTests {
    /// A row ordered by a value of any kind.
    struct Scored: StoreRow {
        var id: Int
        var score: StoreValue

        var storeID: StoreID { .integer(Int64(id)) }

        init(id: Int, score: StoreValue) {
            self.id = id
            self.score = score
        }

        enum CodingKeys: CodingKey { case id, integer, real, text }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            if let integer = try container.decodeIfPresent(Int64.self, forKey: .integer) {
                score = .integer(integer)
            } else if let real = try container.decodeIfPresent(String.self, forKey: .real) {
                score = .real(Double(bitPattern: UInt64(real)!))
            } else if let text = try container.decodeIfPresent(String.self, forKey: .text) {
                score = .text(text)
            } else {
                score = .null
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            switch score {
            case .null: break
            case .integer(let integer): try container.encode(integer, forKey: .integer)
            case .real(let real): try container.encode(String(real.bitPattern), forKey: .real)
            case .text(let text): try container.encode(text, forKey: .text)
            }
        }
    }

    static let scoredSchema = StoreSchema<Scored>(
        table: "scored",
        collections: [
            StoreCollection("ascending", orderedBy: [.computed { $0.score }]),
            StoreCollection("descending", orderedBy: [.computed(descending: true, nulls: .first) { $0.score }]),
        ])

    /// The values' order: NULLs by the rule, then integers, reals and texts, each by value (ties by id).
    static func rank(_ value: StoreValue) -> (Int, Int64, Double, [UInt8]) {
        switch value {
        case .null: (3, 0, 0, [])
        case .integer(let integer): (0, integer, 0, [])
        case .real(let real):
            (1, 0, real.isNaN ? .infinity : real, real.isNaN ? [1] : real == 0 && real.sign == .minus ? [] : [0])
        case .text(let text): (2, 0, 0, Array(text.utf8))
        }
    }

    @Test(
        "P44: sort tuples order integers, reals and strings like their values, ties by id, in every store",
        arguments: StoreKind.allCases)
    func p44TuplesOrderLikeTheirValues(kind: StoreKind) throws {
        var generator = SeededBytes(seed: 44)
        let specials: [StoreValue] = [
            .integer(.min), .integer(.max), .integer(-1), .integer(0), .real(-0.0), .real(0.0), .real(-.infinity),
            .real(.infinity), .real(.nan), .real(-1.5), .text(""), .text("a\u{0}b"), .text("a"), .text("a\u{0}"),
            .text("é"), .null, .null,
        ]
        var values = specials
        for _ in 0..<120 {
            let random = generator.next()
            switch random % 3 {
            case 0: values.append(.integer(Int64(bitPattern: generator.next()) >> (random % 60)))
            case 1: values.append(.real(Double(Int64(bitPattern: generator.next()) >> 20) / 1024))
            default:
                values.append(
                    .text(
                        String(
                            (0..<(random % 5)).map { _ in Character(UnicodeScalar(UInt8(97 + generator.next() % 4))) }))
                )
            }
        }
        let rows = values.enumerated().map { Scored(id: $0.offset, score: $0.element) }
        let store = try StoreFixture(kind, schema: Self.scoredSchema).store
        try store.write { transaction in transaction.upsert(contentsOf: rows) }
        func before(_ left: Scored, _ right: Scored) -> Bool {
            let (a, b) = (Self.rank(left.score), Self.rank(right.score))
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            if a.2 != b.2 { return a.2 < b.2 }
            if a.3 != b.3 { return a.3.lexicographicallyPrecedes(b.3) }
            return left.id < right.id
        }
        let ascending = rows.sorted(by: before).map(\.id)
        #expect(try store.walkRows("ascending", pageSize: 9).map(\.id) == ascending)
        let nulls = rows.filter { $0.score == .null }.map(\.id).sorted(by: >)
        let valued = rows.filter { $0.score != .null }.sorted(by: before).map(\.id).reversed()
        #expect(try store.walkRows("descending", pageSize: 9).map(\.id) == nulls + valued)
    }

    @Test("P72: readers racing writers on four threads each see every commit whole", arguments: StoreKind.allCases)
    func p72ReadersRacingWritersSeeWholeCommits(kind: StoreKind) throws {
        let store = try StoreFixture(kind, schema: .storeS).store
        try store.write { transaction in
            transaction.upsert(contentsOf: (1...10).map { Post(id: $0, createdAt: $0, title: "t", likes: 100) })
        }
        let failures = Locked<[String]>([])
        let rounds = stressRounds(100)
        raceFromBarrier(threads: 4) { thread in
            var generator = SeededBytes(seed: UInt64(thread))
            for _ in 0..<rounds {
                do {
                    if thread < 2 {
                        // Moves one like between two of this writer's five posts, then back: the total stays
                        // 1,000 in every commit.
                        let from = thread * 5 + Int(generator.next() % 5) + 1
                        let to = thread * 5 + from % 5 + 1
                        try store.write { transaction in
                            transaction.upsert(Post(id: from, createdAt: from, title: "t", likes: 99))
                            transaction.upsert(Post(id: to, createdAt: to, title: "t", likes: 101))
                        }
                        try store.write { transaction in
                            transaction.upsert(Post(id: from, createdAt: from, title: "t", likes: 100))
                            transaction.upsert(Post(id: to, createdAt: to, title: "t", likes: 100))
                        }
                    } else {
                        let (total, version, again) = try store.read { reader in
                            let page = try reader.page(of: "feed", .first, limit: 20)
                            return (page.rows.map(\.likes).reduce(0, +), page.version, try reader.version())
                        }
                        if total != 1_000 || version != again { failures.append("total \(total) at \(version)") }
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.value == [])
        #expect(store.dataVersion == UInt64(1 + 4 * rounds))
    }
}
