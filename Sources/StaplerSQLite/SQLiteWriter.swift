import Stapler

/// A planned operation with its rows already encoded (outside the store's lock).
struct EncodedOperation<Row: StoreRow> {
    let operation: PlannedOperation<Row>
    /// The encoding of each row of the operation, in order.
    let bodies: [[UInt8]]
}

/// Applies planned operations to a SQLite file inside an open transaction, with the same semantics as
/// the in-memory store's state (`MemoryStoreState.apply`), and records what it touched.
struct SQLiteWriter<Row: StoreRow> {
    let connection: SQLiteConnection
    let schema: StoreSchema<Row>

    func apply(_ encoded: EncodedOperation<Row>, now: WallTime, touch: inout StoreTouch) throws(StoreError) {
        switch encoded.operation {
        case .upsert(let rows):
            for (row, body) in zip(rows, encoded.bodies) { try upsert(row, body: body, touch: &touch) }
        case .delete(let id):
            try delete(SortKeyEncoding.key(of: id), id: id, touch: &touch)
        case .replaceWindow(let collection, let rows, let keys):
            let name = schema.collections[collection].name
            let old = try members(of: name)
            for (row, body) in zip(rows, encoded.bodies) {
                try upsert(row, body: body, joining: collection, touch: &touch)
            }
            let kept = Set(rows.filter { $0.placements[collection] != nil }.map { SortKeyEncoding.key(of: $0.id) })
            for key in old where !kept.contains(key) {
                if try !isHeld(key, besides: name) {
                    if let id = SortKeyEncoding.identity(fromKey: key) { try delete(key, id: id, touch: &touch) }
                } else if schema.collections[collection].membership == .explicit {
                    try remove(key, from: name)
                }
            }
            try setEdges(of: name, keys: keys, refreshed: now)
            touch.collections.insert(collection)
        case .append(let collection, let rows, let key, let edge):
            for (row, body) in zip(rows, encoded.bodies) {
                try upsert(row, body: body, joining: collection, touch: &touch)
            }
            let name = schema.collections[collection].name
            try ensureEdges(of: name)
            let column = edge == .before ? "keyBefore" : "keyAfter"
            try connection.run(
                "UPDATE stapler_collections SET \(column) = ? WHERE name = ?",
                [key.map { .text($0) } ?? .null, .text(name)])
            touch.collections.insert(collection)
        case .setRemoteKeys(let collection, let keys):
            let name = schema.collections[collection].name
            try ensureEdges(of: name)
            try connection.run(
                "UPDATE stapler_collections SET keyBefore = ?, keyAfter = ? WHERE name = ?",
                [keys.before.map { .text($0) } ?? .null, keys.after.map { .text($0) } ?? .null, .text(name)])
            touch.collections.insert(collection)
        case .markRefreshed(let collection):
            let name = schema.collections[collection].name
            try ensureEdges(of: name)
            try connection.run(
                "UPDATE stapler_collections SET refreshed = ? WHERE name = ?",
                [.integer(now.millisecondsSince1970), .text(name)])
            touch.collections.insert(collection)
        case .clear(let collection):
            let name = schema.collections[collection].name
            for key in try members(of: name) {
                if try isHeld(key, besides: name) {
                    try remove(key, from: name)
                } else if let id = SortKeyEncoding.identity(fromKey: key) {
                    try delete(key, id: id, touch: &touch)
                }
            }
            try connection.run("DELETE FROM stapler_members WHERE collection = ?", [.text(name)])
            try connection.run("DELETE FROM stapler_collections WHERE name = ?", [.text(name)])
            touch.collections.insert(collection)
        }
    }

    /// The value a tuple is stored as in `collection`: bytes, or hexadecimal text for the localized
    /// collation.
    func sortValue(_ cursor: StoreCursor, in collection: Int) -> SQLiteValue {
        schema.collections[collection].isLocalized ? .text(Hex.encode(cursor.bytes)) : .blob(cursor.bytes)
    }

    private func upsert(
        _ planned: PlannedRow<Row>, body: [UInt8], joining: Int? = nil, touch: inout StoreTouch
    ) throws(StoreError) {
        let key = SortKeyEncoding.key(of: planned.id)
        try connection.run(
            "INSERT INTO stapler_rows(id, body) VALUES(?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
            [.blob(key), .blob(body)])
        touch.ids.insert(planned.id)
        for (index, collection) in schema.collections.enumerated() {
            let name = collection.name
            if let cursor = planned.placements[index] {
                if collection.membership == .query || index == joining {
                    try connection.run(
                        """
                        INSERT INTO stapler_members(collection, id, sortKey) VALUES(?, ?, ?)
                        ON CONFLICT(collection, id) DO UPDATE SET sortKey = excluded.sortKey
                        """, [.text(name), .blob(key), sortValue(cursor, in: index)])
                    touch.collections.insert(index)
                } else if try connection.run(
                    "UPDATE stapler_members SET sortKey = ? WHERE collection = ? AND id = ?",
                    [sortValue(cursor, in: index), .text(name), .blob(key)]) > 0
                {
                    touch.collections.insert(index)
                }
            } else if try remove(key, from: name) {
                touch.collections.insert(index)
            }
        }
    }

    private func delete(_ key: [UInt8], id: StoreID, touch: inout StoreTouch) throws(StoreError) {
        guard try connection.run("DELETE FROM stapler_rows WHERE id = ?", [.blob(key)]) > 0 else { return }
        touch.ids.insert(id)
        var names: [String] = []
        try connection.run("SELECT collection FROM stapler_members WHERE id = ?", [.blob(key)]) {
            row throws(StoreError) in names.append(row.text(0) ?? "")
        }
        for name in names {
            if let index = schema.collections.firstIndex(where: { $0.name == name }) { touch.collections.insert(index) }
        }
        try connection.run("DELETE FROM stapler_members WHERE id = ?", [.blob(key)])
    }

    @discardableResult
    private func remove(_ key: [UInt8], from collection: String) throws(StoreError) -> Bool {
        try connection.run(
            "DELETE FROM stapler_members WHERE collection = ? AND id = ?", [.text(collection), .blob(key)]) > 0
    }

    private func members(of collection: String) throws(StoreError) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        try connection.run("SELECT id FROM stapler_members WHERE collection = ?", [.text(collection)]) {
            row throws(StoreError) in keys.append(row.bytes(0))
        }
        return keys
    }

    private func isHeld(_ key: [UInt8], besides collection: String) throws(StoreError) -> Bool {
        try connection.integer(
            "SELECT 1 FROM stapler_members WHERE id = ? AND collection <> ? LIMIT 1", [.blob(key), .text(collection)])
            != nil
    }

    private func ensureEdges(of collection: String) throws(StoreError) {
        try connection.run("INSERT OR IGNORE INTO stapler_collections(name) VALUES(?)", [.text(collection)])
    }

    private func setEdges(of collection: String, keys: StoreRemoteKeys, refreshed: WallTime) throws(StoreError) {
        try connection.run(
            """
            INSERT INTO stapler_collections(name, refreshed, keyBefore, keyAfter) VALUES(?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET refreshed = excluded.refreshed, keyBefore = excluded.keyBefore,
            keyAfter = excluded.keyAfter
            """,
            [
                .text(collection), .integer(refreshed.millisecondsSince1970), keys.before.map { .text($0) } ?? .null,
                keys.after.map { .text($0) } ?? .null,
            ])
    }
}
