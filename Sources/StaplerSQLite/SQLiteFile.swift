import CSQLite
import Foundation
import Stapler

/// Opening a SQLite store's file: checking its version before changing anything, creating or migrating
/// its tables, and moving a damaged file aside.
struct SQLiteFile {
    let writer: SQLiteConnection
    let reader: SQLiteConnection?
    /// The connection that notices other connections' commits; `nil` for `:memory:`.
    let watch: SQLiteConnection?
    let version: UInt64
    /// The names of the file's indexes when it opened (a read-only file may lack a localized collection's).
    let indexes: Set<String>

    /// Reads the file's commit counter, which every store on the file increments in each commit.
    static let counterQuery = "SELECT value FROM stapler_meta WHERE key = 'version'"

    /// The store's own tables: version 1 of the schema.
    static let layout = """
        CREATE TABLE stapler_meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO stapler_meta(key, value) VALUES('version', 0);
        CREATE TABLE stapler_rows(id BLOB PRIMARY KEY, body BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE stapler_members(
            collection TEXT NOT NULL, id BLOB NOT NULL, sortKey NOT NULL, PRIMARY KEY(collection, id)
        ) WITHOUT ROWID;
        CREATE INDEX stapler_members_order ON stapler_members(collection, sortKey);
        CREATE INDEX stapler_members_row ON stapler_members(id);
        CREATE TABLE stapler_collections(name TEXT PRIMARY KEY, refreshed INTEGER, keyBefore TEXT, keyAfter TEXT);
        CREATE TABLE stapler_known(name TEXT PRIMARY KEY);
        """

    static func open<Row>(
        path: String, schema: StoreSchema<Row>, options: SQLiteStore<Row>.Options, coding: SQLiteRowCoding<Row>
    ) throws(StoreError) -> SQLiteFile {
        let isMemory = path == ":memory:"
        let flags = options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let writer = try connection(path: path, flags: flags, schema: schema, options: options)
        // Read before anything is written: a file this build cannot use stays byte for byte as it was.
        let found = Int(try writer.integer("PRAGMA user_version") ?? 0)
        _ = try writer.integer("SELECT COUNT(*) FROM sqlite_master")
        let supported = options.supportedVersion
        guard found <= supported else { throw .schemaTooNew(found: found, supported: supported) }
        if !options.readOnly {
            if !isMemory {
                try writer.run("PRAGMA journal_mode = \(options.journal == .wal ? "WAL" : "DELETE")") { _ in }
                if options.journal == .wal { try writer.execute("PRAGMA synchronous = NORMAL") }
            }
            if let pages = options.maximumPageCount { try writer.run("PRAGMA max_page_count = \(pages)") { _ in } }
        }
        if found == 0 {
            guard !options.readOnly else { throw .cannotOpen("the read-only file holds no store") }
            try transaction(on: writer) { () throws(StoreError) in
                try writer.execute(layout)
                try writer.execute("PRAGMA user_version = 1")
            }
        }
        if max(found, 1) < supported {
            guard !options.readOnly else { throw .readOnly }
            try migrate(writer, from: max(found, 1), options.migrations)
        }
        if !options.readOnly {
            try transaction(on: writer) { () throws(StoreError) in
                try reconcile(writer, schema: schema, coding: coding)
            }
        }
        let version = UInt64(clamping: try writer.integer(counterQuery) ?? 0)
        var reader: SQLiteConnection?
        var watch: SQLiteConnection?
        if !isMemory {
            let opened = try connection(path: path, flags: flags, schema: schema, options: options)
            if !options.readOnly { try opened.execute("PRAGMA query_only = 1") }
            reader = opened
            watch = try SQLiteConnection(
                path: path, flags: flags, busy: BusyWait(timeout: options.busyTimeout, onWait: options.onWait))
            if !options.readOnly { try watch?.execute("PRAGMA query_only = 1") }
        }
        var indexes: Set<String> = []
        try writer.run("SELECT name FROM sqlite_master WHERE type = 'index'") { row throws(StoreError) in
            indexes.insert(row.text(0) ?? "")
        }
        return SQLiteFile(writer: writer, reader: reader, watch: watch, version: version, indexes: indexes)
    }

    /// A connection with the store's busy handler and the localized collections' collations.
    private static func connection<Row>(
        path: String, flags: Int32, schema: StoreSchema<Row>, options: SQLiteStore<Row>.Options
    ) throws(StoreError) -> SQLiteConnection {
        let connection = try SQLiteConnection(
            path: path, flags: flags, busy: BusyWait(timeout: options.busyTimeout, onWait: options.onWait))
        let localizedOrder = schema.localizedOrder
        for collection in schema.collections where collection.isLocalized {
            try SQLiteCollation.register(
                SQLiteCollation { collection.compare($0, $1, localized: localizedOrder) },
                as: SQLiteCollation.name(of: collection.name), on: connection)
        }
        return connection
    }

    /// Runs the migrations after `found`, one transaction each; a failed one leaves the version before it.
    private static func migrate(_ connection: SQLiteConnection, from found: Int, _ migrations: [SQLiteMigration])
        throws(StoreError)
    {
        var current = found
        for migration in migrations.sorted(by: { $0.version < $1.version }) where migration.version > current {
            do {
                try transaction(on: connection) { () throws(StoreError) in
                    for statement in migration.statements { try connection.execute(statement) }
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
            } catch {
                throw .migrationFailed(from: current, to: migration.version)
            }
            current = migration.version
        }
    }

    /// Runs `body` in a write transaction: committed if it returns, rolled back if anything throws.
    private static func transaction(on connection: SQLiteConnection, _ body: () throws(StoreError) -> Void)
        throws(StoreError)
    {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            try body()
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackIfNeeded()
            throw error
        }
    }

    /// Moves the file at `path` (and its `-wal` and `-shm`) to the first free `path.corrupt-N`; returns it.
    static func moveAside(_ path: String) throws(StoreError) -> String {
        let files = FileManager.default
        var number = 1
        while files.fileExists(atPath: "\(path).corrupt-\(number)") { number += 1 }
        let target = "\(path).corrupt-\(number)"
        do {
            try files.moveItem(atPath: path, toPath: target)
            for suffix in ["-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                try files.moveItem(atPath: path + suffix, toPath: target + suffix)
            }
        } catch {
            throw .cannotOpen("cannot move the damaged file aside: \(error)")
        }
        return target
    }
}
