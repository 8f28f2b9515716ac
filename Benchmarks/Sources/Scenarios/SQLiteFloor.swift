import CSQLiteFloor

/// The floor of the store benchmarks: the statements a `SQLiteStore` runs to read or write a page, through
/// SQLite's C API with no framework: each statement prepared once, values bound without a copy, columns
/// read where SQLite keeps them.
///
/// It opens its own connection to the store's file, in the store's settings (WAL, `synchronous =
/// NORMAL`). It reads only the store's tables, so it never depends on how the store encodes tuples.
final class SQLiteFloor {
    private let handle: OpaquePointer
    private let first: OpaquePointer
    private let after: OpaquePointer
    private let upsertRow: OpaquePointer
    private let upsertMember: OpaquePointer
    private let bumpVersion: OpaquePointer
    private let readVersion: OpaquePointer
    private let collection: [UInt8]

    /// One row of a page to write: its key in the rows' table, its sort tuple and its encoded body, as
    /// the store stores them.
    struct WrittenRow {
        let key: [UInt8]
        let sortKey: [UInt8]
        let body: [UInt8]
    }

    /// A connection to the store file at `path`, reading and writing `collection`.
    init(path: String, collection: String) {
        var opened: OpaquePointer?
        check(sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, path)
        handle = opened!
        check(sqlite3_exec(handle, "PRAGMA synchronous = NORMAL", nil, nil, nil) == SQLITE_OK, "synchronous")
        self.collection = Array(collection.utf8)
        let select = "SELECT m.sortKey, m.id, r.body FROM stapler_members AS m JOIN stapler_rows AS r ON r.id = m.id"
        first = SQLiteFloor.prepare(handle, select + " WHERE m.collection = ? ORDER BY m.sortKey ASC LIMIT ?")
        after = SQLiteFloor.prepare(
            handle, select + " WHERE m.collection = ? AND m.sortKey > ? ORDER BY m.sortKey ASC LIMIT ?")
        upsertRow = SQLiteFloor.prepare(
            handle,
            "INSERT INTO stapler_rows(id, body) VALUES(?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body")
        upsertMember = SQLiteFloor.prepare(
            handle,
            """
            INSERT INTO stapler_members(collection, id, sortKey) VALUES(?, ?, ?)
            ON CONFLICT(collection, id) DO UPDATE SET sortKey = excluded.sortKey
            """)
        bumpVersion = SQLiteFloor.prepare(handle, "UPDATE stapler_meta SET value = value + 1 WHERE key = 'version'")
        readVersion = SQLiteFloor.prepare(handle, "SELECT value FROM stapler_meta WHERE key = 'version'")
    }

    deinit {
        for statement in [first, after, upsertRow, upsertMember, bumpVersion, readVersion] {
            sqlite3_finalize(statement)
        }
        sqlite3_close_v2(handle)
    }

    private static func prepare(_ handle: OpaquePointer, _ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        check(result == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        return statement!
    }

    /// Reads up to `limit` rows after `cursor` (from the first row without one) and calls `row` with each
    /// row's body where SQLite keeps it; returns the last row's sort tuple, the cursor of the next page.
    func page(after cursor: [UInt8]?, limit: Int, row: (UnsafeRawBufferPointer) -> Void) -> [UInt8]? {
        let statement = cursor == nil ? first : after
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        // Bound without a copy (a nil destructor): SQLite reads the bytes while the statement steps, which
        // all happens inside these closures.
        return collection.withUnsafeBytes { name in
            (cursor ?? []).withUnsafeBytes { tuple in
                sqlite3_bind_text(
                    statement, 1, name.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(name.count), nil)
                var next: Int32 = 2
                if cursor != nil {
                    sqlite3_bind_blob(statement, 2, tuple.baseAddress, Int32(tuple.count), nil)
                    next = 3
                }
                sqlite3_bind_int64(statement, next, Int64(limit))
                var last: [UInt8]?
                var count = 0
                while true {
                    let result = sqlite3_step(statement)
                    guard result == SQLITE_ROW else {
                        check(result == SQLITE_DONE, "step: \(result)")
                        break
                    }
                    count += 1
                    row(column(statement, 2))
                    if count == limit { last = Array(column(statement, 0)) }
                }
                return last
            }
        }
    }

    /// Writes `rows` in one transaction, as the store commits an upsert of them into one collection;
    /// returns the data version it committed.
    @discardableResult
    func write(_ rows: [WrittenRow]) -> Int64 {
        check(sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK, "BEGIN")
        for row in rows {
            collection.withUnsafeBytes { name in
                row.key.withUnsafeBytes { key in
                    row.body.withUnsafeBytes { body in
                        sqlite3_bind_blob(upsertRow, 1, key.baseAddress, Int32(key.count), nil)
                        sqlite3_bind_blob(upsertRow, 2, body.baseAddress, Int32(body.count), nil)
                        step(upsertRow)
                    }
                    row.sortKey.withUnsafeBytes { sortKey in
                        sqlite3_bind_text(
                            upsertMember, 1, name.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(name.count),
                            nil)
                        sqlite3_bind_blob(upsertMember, 2, key.baseAddress, Int32(key.count), nil)
                        sqlite3_bind_blob(upsertMember, 3, sortKey.baseAddress, Int32(sortKey.count), nil)
                        step(upsertMember)
                    }
                }
            }
        }
        step(bumpVersion)
        check(sqlite3_step(readVersion) == SQLITE_ROW, "version")
        let version = sqlite3_column_int64(readVersion, 0)
        sqlite3_reset(readVersion)
        check(sqlite3_exec(handle, "COMMIT", nil, nil, nil) == SQLITE_OK, "COMMIT")
        return version
    }

    /// The members of the collection at the positions `keep` accepts, in order: each one's key in the rows'
    /// table and its sort tuple (setup only).
    func members(where keep: (_ position: Int) -> Bool) -> [(key: [UInt8], sortKey: [UInt8])] {
        let statement = SQLiteFloor.prepare(
            handle, "SELECT id, sortKey FROM stapler_members WHERE collection = ? ORDER BY sortKey")
        defer { sqlite3_finalize(statement) }
        var members: [(key: [UInt8], sortKey: [UInt8])] = []
        collection.withUnsafeBytes { name in
            sqlite3_bind_text(
                statement, 1, name.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(name.count), nil)
            var position = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                if keep(position) { members.append((Array(column(statement, 0)), Array(column(statement, 1)))) }
                position += 1
            }
        }
        return members
    }

    private func step(_ statement: OpaquePointer) {
        check(sqlite3_step(statement) == SQLITE_DONE, String(cString: sqlite3_errmsg(handle)))
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, index))
        return UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, index), count: count)
    }
}
