import Stapler

/// What a read found out for the store to act on after it: the collections whose reads met rows that no
/// longer decode (to clear), and the file's commit counter (to notice other connections' commits).
final class SQLiteReadContext {
    var undecodable: [String] = []
    var counter: UInt64?
}

/// A reader over a connection inside one read transaction: every read sees the same data version.
struct SQLiteReader<Row: StoreRow>: StoreReading {
    let connection: SQLiteConnection
    let schema: StoreSchema<Row>
    /// The file's indexes when the store opened.
    let indexes: Set<String>
    /// Decodes a row's body, with the one decoder of this read.
    let decodeRow: (UnsafeRawBufferPointer) throws -> Row
    let context: SQLiteReadContext
    /// The store's counts of its collections, by version.
    let counts: SQLiteCounts

    /// The file's commit counter in this read transaction (read once per transaction).
    func version() throws(StoreError) -> UInt64 {
        if let counter = context.counter { return counter }
        // A negative counter (a file damaged outside the store) reads as 0, never a trap.
        let counter = UInt64(clamping: try connection.integer(SQLiteFile.counterQuery) ?? 0)
        context.counter = counter
        return counter
    }

    func page(of collection: String, _ position: StorePosition, limit: Int) throws(StoreError) -> StorePage<Row> {
        let index = try schema.index(of: collection)
        let localized = schema.collections[index].isLocalized
        let collation = SQLiteCollation.name(of: collection)
        let sortKey = localized ? "m.sortKey COLLATE \(collation)" : "m.sortKey"
        // A localized collection's index is partial, on its name as a literal: the query names it so too,
        // and names the index, which SQLite would otherwise pass over (with no statistics it prefers the
        // primary key's `collection = …` and sorts the whole collection for every page). A file opened
        // read-only may not have it yet: the read then works, slowly.
        let member = localized ? "m.collection = '\(collection.replacingQuotes)'" : "m.collection = ?"
        let orderIndex = "\(collation)_order"
        let members =
            localized && indexes.contains(orderIndex)
            ? "stapler_members AS m INDEXED BY \(orderIndex)" : "stapler_members AS m"
        var values: [SQLiteValue] = localized ? [] : [.text(collection)]
        var sql = "SELECT m.sortKey, m.id, r.body FROM \(members) JOIN stapler_rows AS r ON r.id = m.id"
        sql += " WHERE \(member)"
        let writer = SQLiteWriter(connection: connection, schema: schema)
        let reversed: Bool
        switch position {
        case .first:
            sql += " ORDER BY \(sortKey) ASC"
            reversed = false
        case .last:
            sql += " ORDER BY \(sortKey) DESC"
            reversed = true
        case .after(let cursor):
            sql += " AND \(sortKey) > ? ORDER BY \(sortKey) ASC"
            values.append(writer.sortValue(cursor, in: index))
            reversed = false
        case .before(let cursor):
            sql += " AND \(sortKey) < ? ORDER BY \(sortKey) DESC"
            values.append(writer.sortValue(cursor, in: index))
            reversed = true
        }
        sql += " LIMIT ?"
        values.append(.integer(Int64(max(0, limit))))
        var entries: [StoreEntry<Row>] = []
        entries.reserveCapacity(min(max(0, limit), 1_000))
        try connection.run(sql, values) { row throws(StoreError) in
            let stored = row.buffer(0)
            let cursor = StoreCursor(bytes: localized ? Hex.decode(stored) : Array(stored))
            entries.append(StoreEntry(row: try decode(row, collection: collection), cursor: cursor))
        }
        if reversed { entries.reverse() }
        return StorePage(entries: entries, version: try version())
    }

    /// The count of `collection`, counted once per data version (see ``SQLiteCounts``).
    func count(of collection: String) throws(StoreError) -> Int {
        _ = try schema.index(of: collection)
        let version = try version()
        if let count = counts.count(of: collection, at: version) { return count }
        let count = Int(
            try connection.integer("SELECT COUNT(*) FROM stapler_members WHERE collection = ?", [.text(collection)])
                ?? 0)
        counts.record(count, of: collection, at: version)
        return count
    }

    func row(_ id: StoreID) throws(StoreError) -> Row? {
        let key = SortKeyEncoding.key(of: id)
        var found: Row?
        try connection.run("SELECT body, id FROM stapler_rows WHERE id = ?", [.blob(key)]) { row throws(StoreError) in
            found = try decode(row, body: 0, key: 1, collection: nil)
        }
        return found
    }

    func lastRefreshed(of collection: String) throws(StoreError) -> WallTime? {
        _ = try schema.index(of: collection)
        return try connection.integer("SELECT refreshed FROM stapler_collections WHERE name = ?", [.text(collection)])
            .map { WallTime(millisecondsSince1970: $0) }
    }

    func remoteKeys(of collection: String) throws(StoreError) -> StoreRemoteKeys {
        _ = try schema.index(of: collection)
        var keys = StoreRemoteKeys.none
        try connection.run("SELECT keyBefore, keyAfter FROM stapler_collections WHERE name = ?", [.text(collection)]) {
            row throws(StoreError) in keys = StoreRemoteKeys(before: row.text(0), after: row.text(1))
        }
        return keys
    }

    /// Decodes the body in column `body` of `row`; the key in column `key` names the row that does not.
    private func decode(_ row: SQLiteRow, body: Int32 = 2, key: Int32 = 1, collection: String?) throws(StoreError)
        -> Row
    {
        do {
            return try decodeRow(row.buffer(body))
        } catch {
            if let collection, !context.undecodable.contains(collection) { context.undecodable.append(collection) }
            let id = SortKeyEncoding.identity(fromKey: row.bytes(key)) ?? .text("?")
            throw .undecodable(collection: collection, id: id, underlying: "\(error)")
        }
    }
}

extension String {
    /// The string with each `'` doubled, for a SQL string literal.
    var replacingQuotes: String {
        var result = ""
        for character in self {
            result.append(character)
            if character == "'" { result.append("'") }
        }
        return result
    }
}
