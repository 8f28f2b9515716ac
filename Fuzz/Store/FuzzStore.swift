// A libFuzzer target for the SQLite store. The first byte picks the mode:
//
// - Transactions (even): the rest is decoded into transactions (upserts, deletes, a window replaced, rows
//   appended with an edge key, a collection cleared, a body that throws) over three collections: posts
//   with a score by score, flagged posts by localized title (largest first; titles with accents,
//   canonically equal spellings and an embedded NUL), and a list written explicitly by nulls-first score.
//   After each commit every collection's keyset walk, forwards and backwards, must equal a reference
//   computed here from the rows (filter, order, identity as the tie-break), and so must its count and keys.
// - A corrupt file (odd): the bytes become the database file, either as they are or as byte changes
//   applied to a valid store file. Opening it, reading every collection and writing must each return or
//   throw a `StoreError`, never trap.
//
// `scripts/fuzz.sh store` builds it with the StaplerSQLite module and the system's SQLite.

import Foundation
import Stapler
import StaplerSQLite

/// A row of the fuzzed store.
struct FuzzPost: StoreRow, Equatable {
    var id: Int
    var score: Int?
    var title: String
    var flagged: Bool

    var storeID: StoreID { .integer(Int64(id)) }
}

/// The three collections, in the order the reference lists them.
let collectionNames = ["scored", "flagged", "window"]

let fuzzSchema = StoreSchema<FuzzPost>(
    table: "post",
    collections: [
        StoreCollection("scored", where: { $0.score != nil }, orderedBy: [.ascending(\.score)]),
        StoreCollection("flagged", where: { $0.flagged }, orderedBy: [.descending(\.title, collation: .localized)]),
        StoreCollection("window", membership: .explicit, orderedBy: [.ascending(\.score, nulls: .first)]),
    ])

/// Titles that compare in interesting ways: by bytes and by Swift's order, `"é"` and `"e\u{301}"` are equal.
let titles = ["", "a", "B", "é", "e\u{301}", "a\u{0}b", "Ä", "zz", "a long title past fifteen bytes"]

/// Traps with `message`: libFuzzer records the input as a crash.
func storeFailure(_ message: String) -> Never {
    fatalError("store fuzz: \(message)")
}

/// Reads the fuzzer's bytes one at a time; 0 once they are used up.
struct ByteReader {
    var bytes: ArraySlice<UInt8>

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func next() -> Int { Int(bytes.popFirst() ?? 0) }
}

/// What a store holds, computed in Swift: the rows, the written list's members and its edge keys.
struct Reference {
    var rows: [Int: FuzzPost] = [:]
    var window: Set<Int> = []
    var keys = StoreRemoteKeys.none

    /// The ids of `collection` in its order: its filter and order applied to the rows, ties by identity.
    func walk(_ collection: String) -> [Int] {
        switch collection {
        case "scored":
            return rows.values.filter { $0.score != nil }.sorted { ($0.score!, $0.id) < ($1.score!, $1.id) }.map(\.id)
        case "flagged":
            return rows.values.filter(\.flagged).sorted { a, b in a.title == b.title ? a.id > b.id : a.title > b.title }
                .map(\.id)
        default:
            return window.map { rows[$0]! }.sorted { a, b in
                (a.score ?? .min, a.id) < (b.score ?? .min, b.id)
            }.map(\.id)
        }
    }

    /// Whether a collection other than the written list holds `id`.
    func isHeldOutsideWindow(_ id: Int) -> Bool {
        guard let row = rows[id] else { return false }
        return row.score != nil || row.flagged
    }

    mutating func upsert(_ row: FuzzPost, joiningWindow: Bool = false) {
        rows[row.id] = row
        if joiningWindow { window.insert(row.id) }
    }

    mutating func delete(_ id: Int) {
        rows[id] = nil
        window.remove(id)
    }

    mutating func replaceWindow(_ newRows: [FuzzPost], keys: StoreRemoteKeys) {
        let old = window
        for row in newRows { upsert(row, joiningWindow: true) }
        let kept = Set(newRows.map(\.id))
        for id in old where !kept.contains(id) {
            if isHeldOutsideWindow(id) { window.remove(id) } else { delete(id) }
        }
        self.keys = keys
    }

    mutating func clearWindow() {
        for id in window {
            if isHeldOutsideWindow(id) { window.remove(id) } else { delete(id) }
        }
        window = []
        keys = .none
    }
}

/// A failure of the transaction's body, to check that nothing of it commits.
struct Abandoned: Error {}

/// Decodes a row: identities 0-11, a score of 0-6 or none, a title, a flag.
func row(_ reader: inout ByteReader) -> FuzzPost {
    let shape = reader.next()
    let score = reader.next() % 8
    return FuzzPost(
        id: shape % 12, score: score == 7 ? nil : score, title: titles[(shape / 12) % titles.count],
        flagged: shape >= 128)
}

/// Decodes and commits one transaction, applying it to `reference` if it commits.
func playTransaction(_ store: SQLiteStore<FuzzPost>, _ reference: inout Reference, _ reader: inout ByteReader) {
    var next = reference
    let operations = 1 + reader.next() % 4
    do {
        try store.write { transaction in
            for _ in 0..<operations {
                switch reader.next() % 8 {
                case 0, 1:
                    let rows = (0...reader.next() % 3).map { _ in row(&reader) }
                    transaction.upsert(contentsOf: rows)
                    for each in rows { next.upsert(each) }
                case 2:
                    let id = reader.next() % 12
                    transaction.delete(.integer(Int64(id)))
                    next.delete(id)
                case 3:
                    let rows = (0..<reader.next() % 4).map { _ in row(&reader) }
                    let keys = StoreRemoteKeys(before: "b\(reader.next() % 3)", after: nil)
                    transaction.replaceWindow(of: "window", rows: rows, keys: keys)
                    next.replaceWindow(rows, keys: keys)
                case 4, 5:
                    let rows = (0...reader.next() % 2).map { _ in row(&reader) }
                    let edge: StoreEdge = reader.next() % 2 == 0 ? .before : .after
                    let key = reader.next() % 3 == 0 ? nil : "k\(reader.next() % 5)"
                    transaction.append(to: "window", rows: rows, key: key, edge: edge)
                    for each in rows { next.upsert(each, joiningWindow: true) }
                    if edge == .before { next.keys.before = key } else { next.keys.after = key }
                case 6:
                    transaction.clear("window")
                    next.clearWindow()
                default:
                    throw Abandoned()
                }
            }
        }
    } catch is Abandoned {
        return  // Nothing of it may have committed: the caller checks the store against the old reference.
    } catch {
        storeFailure("a write of a working store failed: \(error)")
    }
    reference = next
}

/// The ids of `collection` read by keyset `pageSize` rows at a time, from the first row or from the last.
func walk(_ store: SQLiteStore<FuzzPost>, _ collection: String, pageSize: Int, backwards: Bool) throws -> [Int] {
    var ids: [Int] = []
    var position: StorePosition = backwards ? .last : .first
    while true {
        let page = try store.page(of: collection, position, limit: pageSize)
        let pageIDs = page.rows.map(\.id)
        ids = backwards ? pageIDs + ids : ids + pageIDs
        guard page.entries.count == pageSize else { return ids }
        position = backwards ? .before(page.entries.first!.cursor) : .after(page.entries.last!.cursor)
        if ids.count > 100 { storeFailure("\(collection) walks past the rows it holds: \(ids)") }
    }
}

/// Checks every collection's walks, counts and the written list's keys against `reference`.
func check(_ store: SQLiteStore<FuzzPost>, against reference: Reference, pageSize: Int) {
    do {
        for name in collectionNames {
            let expected = reference.walk(name)
            for backwards in [false, true] {
                let ids = try walk(store, name, pageSize: pageSize, backwards: backwards)
                if ids != expected {
                    storeFailure("\(name) walks \(ids) (backwards: \(backwards)), the reference \(expected)")
                }
            }
            if try store.count(of: name) != expected.count { storeFailure("\(name)'s count is not \(expected.count)") }
        }
        if try store.remoteKeys(of: "window") != reference.keys { storeFailure("the window's keys changed") }
    } catch {
        storeFailure("a read of a working store failed: \(error)")
    }
}

/// Where the files go: shared memory where there is some (no disk waits, many more inputs a second).
let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()

/// A fresh path in the temporary directory, its files removed.
func freshPath() -> String {
    let path = directory + "stapler-fuzz-store-\(getpid()).sqlite"
    removeFiles(path)
    return path
}

/// Removes a store file and its companions.
func removeFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
}

/// Plays the transactions the bytes describe on a new store file, checking it after each commit.
func playTransactions(_ reader: inout ByteReader) {
    let path = freshPath()
    defer { removeFiles(path) }
    let pageSize = 1 + reader.next() % 4
    let store: SQLiteStore<FuzzPost>
    do {
        store = try SQLiteStore(path: path, schema: fuzzSchema)
    } catch {
        storeFailure("a new store did not open: \(error)")
    }
    var reference = Reference()
    var transactions = 0
    while !reader.isAtEnd, transactions < 12 {
        playTransaction(store, &reference, &reader)
        check(store, against: reference, pageSize: pageSize)
        transactions += 1
    }
}

/// The bytes of a valid store file with a few rows in every collection, made once.
let validFile: [UInt8] = {
    let path = freshPath()
    defer { removeFiles(path) }
    do {
        var options = SQLiteStore<FuzzPost>.Options()
        options.journal = .delete
        let store = try SQLiteStore(path: path, schema: fuzzSchema, options: options)
        try store.write { transaction in
            let rows = (0..<12).map {
                FuzzPost(id: $0, score: $0 % 3 == 0 ? nil : $0, title: titles[$0 % titles.count], flagged: $0 % 2 == 0)
            }
            transaction.upsert(contentsOf: rows)
            transaction.replaceWindow(of: "window", rows: Array(rows.prefix(5)), keys: StoreRemoteKeys(after: "k"))
        }
    } catch {
        storeFailure("the valid file was not made: \(error)")
    }
    return Array(FileManager.default.contents(atPath: path) ?? Data())
}()

/// Runs `body`; anything it throws must be a `StoreError`.
func expectingStoreError(_ what: String, _ body: () throws -> Void) {
    do {
        try body()
    } catch is StoreError {
    } catch {
        storeFailure("\(what) threw \(error), not a StoreError")
    }
}

/// Opens a file made of the bytes (as they are, or as changes to a valid file), then reads and writes it.
func playCorruptFile(_ reader: inout ByteReader, asChanges: Bool) {
    var file = Array(reader.bytes)
    if asChanges {
        file = validFile
        while !reader.isAtEnd, !file.isEmpty {
            let offset = (reader.next() << 8 | reader.next()) % file.count
            file[offset] = UInt8(reader.next())
        }
    }
    let path = freshPath()
    defer { removeFiles(path) }
    guard FileManager.default.createFile(atPath: path, contents: Data(file)) else { storeFailure("no file") }
    var store: SQLiteStore<FuzzPost>?
    expectingStoreError("opening") { store = try SQLiteStore(path: path, schema: fuzzSchema) }
    guard let store else { return }
    for name in collectionNames {
        for backwards in [false, true] {
            expectingStoreError("walking \(name)") { _ = try walk(store, name, pageSize: 3, backwards: backwards) }
        }
        expectingStoreError("counting \(name)") { _ = try store.count(of: name) }
    }
    expectingStoreError("writing") {
        try store.write { transaction in
            transaction.upsert(FuzzPost(id: 3, score: 1, title: "é", flagged: true))
            transaction.replaceWindow(of: "window", rows: [FuzzPost(id: 4, score: nil, title: "", flagged: false)])
        }
    }
}

/// The fuzz entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 1 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var reader = ByteReader(bytes: Array(bytes[1...])[...])
    switch bytes[0] % 4 {
    case 1: playCorruptFile(&reader, asChanges: false)
    case 3: playCorruptFile(&reader, asChanges: true)
    default: playTransactions(&reader)
    }
    return 0
}
