import Reactive

/// Where a keyset read starts in a collection's order.
public enum StorePosition: Hashable, Sendable {
    /// The first rows of the collection.
    case first
    /// The last rows of the collection.
    case last
    /// The rows that sort after the cursor (not including its row).
    case after(StoreCursor)
    /// The rows that sort before the cursor (not including its row).
    case before(StoreCursor)
}

/// One row of a page with its position in the collection's order.
public struct StoreEntry<Row: StoreRow>: Sendable {
    /// The stored row.
    public let row: Row
    /// The row's sort tuple: read after or before it for the neighbouring page.
    public let cursor: StoreCursor

    /// An entry of `row` at `cursor`.
    package init(row: Row, cursor: StoreCursor) {
        self.row = row
        self.cursor = cursor
    }
}

/// Rows of a collection read by keyset, in the collection's order, at one data version.
public struct StorePage<Row: StoreRow>: Sendable {
    /// The rows with their cursors, in the collection's order (also for ``StorePosition/before(_:)`` and
    /// ``StorePosition/last``).
    public let entries: [StoreEntry<Row>]
    /// The data version the page was read at.
    public let version: UInt64

    /// A page of `entries` read at `version`.
    package init(entries: [StoreEntry<Row>], version: UInt64) {
        self.entries = entries
        self.version = version
    }

    /// The rows, in order.
    public var rows: [Row] { entries.map(\.row) }
}

/// A consistent view of a store: every read through one reader sees the same data version.
///
/// A reader is valid only inside the ``LocalStore/read(_:)`` call that passed it.
public protocol StoreReading<Row> {
    /// The type of the rows.
    associatedtype Row: StoreRow

    /// The data version this reader sees.
    func version() throws(StoreError) -> UInt64
    /// Up to `limit` rows of `collection` from `position`, in the collection's order.
    ///
    /// Reads by keyset: the rows after or before a cursor are those whose tuples compare after or before
    /// it now, whatever was inserted or deleted elsewhere, so no row is repeated or skipped.
    /// - Complexity: O(log n + limit) in both stores.
    func page(of collection: String, _ position: StorePosition, limit: Int) throws(StoreError) -> StorePage<Row>
    /// How many rows `collection` holds.
    func count(of collection: String) throws(StoreError) -> Int
    /// The stored row `id`, or `nil`.
    func row(_ id: StoreID) throws(StoreError) -> Row?
    /// When `collection` was last refreshed (a window replaced, or marked), by the store's clock.
    func lastRefreshed(of collection: String) throws(StoreError) -> WallTime?
    /// The remote keys of `collection`'s edges.
    func remoteKeys(of collection: String) throws(StoreError) -> StoreRemoteKeys
}

/// A local store of rows and the collections over them: the single source of truth of offline-first
/// lists.
///
/// Two stores conform, with one contract and one conformance suite: ``MemoryStore`` and, in the
/// `StaplerSQLite` module, `SQLiteStore`. The contract:
/// - Rows are stored once, by identity; every collection that holds a row shows that one value.
/// - A write is one transaction: all its operations commit, or (the body threw, or the store failed)
///   none does. A transaction that changes nothing commits nothing.
/// - Each commit increments ``dataVersion`` by one and sends one ``StoreChange`` on ``changes``, in
///   commit order, outside every lock of the store. Commits by another connection to the same file (an
///   app extension's `SQLiteStore`) are reported once the store notices them, as one change at the newest
///   version noticed (see ``noticeExternalCommits()``).
/// - A reader sees one commit entirely or not at all, and keeps its version until its `read` returns.
/// - Reads are by keyset over sort tuples that end in the identity, never by offset.
/// - Every failure is a ``StoreError``; a failed write leaves everything as it was.
///
/// Calls may come from any thread. Writes are serialised; reads never wait for writes except in a
/// SQLite store in `DELETE` journal mode or in memory (`:memory:`), where a commit waits for readers.
/// Never write from inside ``read(_:)``.
public protocol LocalStore<Row>: AnyObject, Sendable {
    /// The type of the rows.
    associatedtype Row: StoreRow

    /// The rows' table and the registered collections.
    var schema: StoreSchema<Row> { get }
    /// The data version of the last commit: it only grows.
    var dataVersion: UInt64 { get }
    /// One value per commit, in commit order; it never fails or completes while the store lives.
    var changes: Signal<StoreChange, Never> { get }

    /// Runs `body` to record a transaction, then commits it.
    ///
    /// - Returns: The change the commit sent, or, when nothing changed, a change with the current version
    ///   and no tables, collections or ids (no notification is sent then).
    /// - Throws: What `body` throws (nothing is written), or a ``StoreError`` (nothing is written).
    @discardableResult
    func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange

    /// Runs `body` with a reader that sees one data version throughout.
    ///
    /// Every read also notices commits that other connections made to the store's data before it (see
    /// ``noticeExternalCommits()``), and reports them before it returns: call it outside locks, since it may
    /// run the observers of ``changes``.
    func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result

    /// Looks, cheaply, for commits that other connections made to the store's data since it last looked,
    /// and reports them: ``dataVersion`` moves to the newest of them, and one ``StoreChange`` at that
    /// version, naming every collection (the store cannot know what another connection touched) and no
    /// ids, is sent on ``changes`` before this returns.
    ///
    /// A list over the store calls it after each read, before it shows the rows it read, so a page read
    /// before another connection's commit is discarded like one read before the store's own. An app whose
    /// extension writes the same file calls it when the extension says it wrote (or when the app returns
    /// to the foreground) so that idle lists reload; every read calls it too. A store that no other
    /// connection can write (``MemoryStore``, a SQLite store in memory) does nothing. Call it outside
    /// locks: it may run the observers of ``changes``.
    func noticeExternalCommits()
}

extension LocalStore {
    /// Up to `limit` rows of `collection` from `position`: one read at one version.
    public func page(of collection: String, _ position: StorePosition, limit: Int) throws -> StorePage<Row> {
        try read { reader in try reader.page(of: collection, position, limit: limit) }
    }

    /// How many rows `collection` holds.
    public func count(of collection: String) throws -> Int {
        try read { reader in try reader.count(of: collection) }
    }

    /// The stored row `id`, or `nil`.
    public func row(_ id: StoreID) throws -> Row? {
        try read { reader in try reader.row(id) }
    }

    /// When `collection` was last refreshed, by the store's clock.
    public func lastRefreshed(of collection: String) throws -> WallTime? {
        try read { reader in try reader.lastRefreshed(of: collection) }
    }

    /// The remote keys of `collection`'s edges.
    public func remoteKeys(of collection: String) throws -> StoreRemoteKeys {
        try read { reader in try reader.remoteKeys(of: collection) }
    }
}
