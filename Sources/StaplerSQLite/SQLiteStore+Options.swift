import Stapler

/// One step of a SQLite store's schema: the statements that bring a file from the previous version to
/// ``version``, run in one transaction.
///
/// The store's own tables are version 1. An app's migrations (rewriting stored rows, adding tables of its
/// own) continue from 2; the highest version listed is the version the store supports. A new file is
/// created at version 1, then runs every migration, as an old file runs those after its version.
public struct SQLiteMigration: Hashable, Sendable {
    /// The version the migration brings the file to.
    public let version: Int
    /// The SQL statements, run in order inside one transaction.
    public let statements: [String]

    /// A migration to `version` made of `statements`.
    public init(version: Int, statements: [String]) {
        self.version = version
        self.statements = statements
    }
}

/// What a SQLite store did when it found its file damaged at open.
public struct SQLiteRecovery: Hashable, Sendable {
    /// Where the damaged file was moved: `name.corrupt-N`.
    ///
    /// Its `-wal` and `-shm` files lie beside it with the same suffix. Nothing is ever deleted.
    public let movedTo: String
}

extension SQLiteStore {
    /// The journal mode of a SQLite file.
    public enum Journal: Hashable, Sendable {
        /// Write-ahead log: readers never wait for the writer, and the writer never waits for readers.
        case wal
        /// Rollback journal: a commit waits for readers to finish (within the busy timeout).
        case delete
    }

    /// What opening a damaged file (`notADatabase` or `corrupt`) does.
    public enum CorruptionPolicy: Hashable, Sendable {
        /// Moves the files aside as `name.corrupt-N` and starts empty; ``SQLiteStore/recovery`` says where
        /// they went.
        case recreate
        /// Throws the error.
        case fail
    }

    /// What a read that meets a row that no longer decodes does, besides throwing
    /// ``Stapler/StoreError/undecodable(collection:id:underlying:)``.
    public enum UndecodablePolicy: Hashable, Sendable {
        /// Also clears the collection it read, in one transaction after the read (rows another collection
        /// holds stay), so that a refresh can fill it again.
        case dropCollection
        /// Nothing more.
        case fail
    }

    /// How a SQLite store opens and runs its file.
    public struct Options: Sendable {
        /// The journal mode (WAL by default; ignored for `:memory:`).
        public var journal: Journal = .wal
        /// How long a statement retries while another connection holds the lock, before it throws
        /// ``Stapler/StoreError/busy``.
        public var busyTimeout: Duration = .seconds(5)
        /// Opens the file read-only: reads work, every write throws ``Stapler/StoreError/readOnly``.
        public var readOnly = false
        /// What opening a damaged file does.
        public var onCorruption: CorruptionPolicy = .fail
        /// What reading a row that no longer decodes does.
        public var onUndecodable: UndecodablePolicy = .fail
        /// The app's migrations, from version 2 on.
        public var migrations: [SQLiteMigration] = []
        /// The most pages the file may grow to (`PRAGMA max_page_count`); a write beyond throws
        /// ``Stapler/StoreError/full``.
        public var maximumPageCount: Int?
        /// The wall clock of the collections' last refresh.
        public var clock: any WallClock = SystemWallClock()
        /// Called each time a statement starts waiting for a lock that a reader or another connection holds.
        ///
        /// For diagnostics and tests. It runs on the waiting thread, inside the store: it must not call the
        /// store.
        public var onWait: (@Sendable () -> Void)?

        /// The default options: WAL, a 5-second busy timeout, and errors for damaged files and rows.
        public init() {}

        /// The options of a store that is a cache of the server: damaged files are moved aside and the
        /// store starts empty; a collection with a row that no longer decodes is cleared for a refresh.
        public static var cache: Options {
            var options = Options()
            options.onCorruption = .recreate
            options.onUndecodable = .dropCollection
            return options
        }

        /// The schema version these options support: the highest migration's, at least 1.
        var supportedVersion: Int {
            migrations.map(\.version).max().map { max($0, 1) } ?? 1
        }
    }
}
