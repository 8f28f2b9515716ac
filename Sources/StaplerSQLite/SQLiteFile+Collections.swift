import Stapler

extension SQLiteFile {
    /// Brings the file's collections in line with the schema, inside the open's transaction.
    ///
    /// A collection the file does not know yet is filled: a ``Stapler/StoreMembership/query`` collection
    /// gets every stored row that matches its filter (rows that no longer decode are left out of it). A
    /// collection the schema no longer registers loses its membership, keys and index, so that its old
    /// members no longer count as rows another list holds. A localized collection gets its partial index,
    /// ordered by its collation.
    static func reconcile<Row>(_ connection: SQLiteConnection, schema: StoreSchema<Row>, coding: SQLiteRowCoding<Row>)
        throws(StoreError)
    {
        let names = Set(schema.collections.map(\.name))
        let localizedIndexes = Set(
            schema.collections.filter(\.isLocalized).map { SQLiteCollation.name(of: $0.name) + "_order" })
        var indexes: [String] = []
        try connection.run("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'stapler%order'") {
            row throws(StoreError) in indexes.append(row.text(0) ?? "")
        }
        for index in indexes where index != "stapler_members_order" && !localizedIndexes.contains(index) {
            try connection.execute("DROP INDEX \(index)")
        }
        var stored: Set<String> = []
        for sql in ["SELECT name FROM stapler_known", "SELECT DISTINCT collection FROM stapler_members"] {
            try connection.run(sql) { row throws(StoreError) in stored.insert(row.text(0) ?? "") }
        }
        for name in stored.subtracting(names) {
            try connection.run("DELETE FROM stapler_members WHERE collection = ?", [.text(name)])
            try connection.run("DELETE FROM stapler_collections WHERE name = ?", [.text(name)])
            try connection.run("DELETE FROM stapler_known WHERE name = ?", [.text(name)])
        }
        for collection in schema.collections where collection.isLocalized {
            let collation = SQLiteCollation.name(of: collection.name)
            try connection.execute(
                """
                CREATE INDEX IF NOT EXISTS \(collation)_order ON stapler_members(sortKey COLLATE \(collation))
                WHERE collection = '\(collection.name.replacingQuotes)'
                """)
        }
        var known: Set<String> = []
        try connection.run("SELECT name FROM stapler_known") { row throws(StoreError) in known.insert(row.text(0) ?? "")
        }
        let writer = SQLiteWriter(connection: connection, schema: schema)
        let decode = coding.makeDecode()
        for (index, collection) in schema.collections.enumerated() where !known.contains(collection.name) {
            if collection.membership == .query {
                var members: [(key: [UInt8], cursor: StoreCursor)] = []
                try connection.run("SELECT id, body FROM stapler_rows") { row throws(StoreError) in
                    guard let decoded = try? decode(row.buffer(1)), let cursor = collection.placement(of: decoded)
                    else { return }
                    members.append((row.bytes(0), cursor))
                }
                for member in members {
                    try connection.run(
                        "INSERT OR REPLACE INTO stapler_members(collection, id, sortKey) VALUES(?, ?, ?)",
                        [.text(collection.name), .blob(member.key), writer.sortValue(member.cursor, in: index)])
                }
            }
            try connection.run("INSERT INTO stapler_known(name) VALUES(?)", [.text(collection.name)])
        }
    }
}
