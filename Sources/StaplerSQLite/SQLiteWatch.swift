import CSQLite
import Stapler

/// A connection kept only to notice other connections' commits cheaply.
///
/// `PRAGMA data_version` answers a different value on a connection after any other connection committed
/// to the file (this store's writer included), without reading a table. Only when it moved does the watch
/// read the file's commit counter. Not thread safe: the store keeps it inside a `LockedState`.
final class SQLiteWatch {
    private let connection: SQLiteConnection
    /// The data version the last check answered; `nil` before the first.
    private var lastDataVersion: Int64?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// The file's commit counter if any connection committed since the last call (always, the first time),
    /// else `nil`.
    func counterIfChanged() throws(StoreError) -> UInt64? {
        let dataVersion = try connection.integer("PRAGMA data_version")
        guard dataVersion != lastDataVersion else { return nil }
        lastDataVersion = dataVersion
        return UInt64(clamping: try connection.integer(SQLiteFile.counterQuery) ?? 0)
    }
}
