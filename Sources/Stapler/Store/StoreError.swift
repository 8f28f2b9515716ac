/// Why a store call failed.
///
/// Every store call returns or throws one of these; none traps.
/// A failed write rolls back: it changes neither the rows, nor any collection, nor the data version,
/// and sends no notification.
public enum StoreError: Error, Hashable, Sendable {
    /// The database stayed locked by another connection past the busy timeout, retries included.
    case busy
    /// The store was opened read-only, or the file cannot be written.
    case readOnly
    /// The disk, or the store's page limit, is full.
    case full
    /// The file is not a database (its header is not SQLite's).
    case notADatabase
    /// A page of the file is damaged: the read or write that met it fails, the rest stays readable.
    case corrupt
    /// The file's schema version is newer than this build supports: nothing was changed.
    case schemaTooNew(found: Int, supported: Int)
    /// A migration failed: the file keeps its old version and its data.
    case migrationFailed(from: Int, to: Int)
    /// The file cannot be opened, for the given reason.
    case cannotOpen(String)
    /// An input/output error, with SQLite's extended result code.
    case io(code: Int32)
    /// A stored row no longer decodes (its type changed): the read that met it fails, naming the
    /// collection it read (`nil` for a read by identity), the row and the decoder's message.
    case undecodable(collection: String?, id: StoreID, underlying: String)
    /// A row could not be encoded: the write rolls back.
    case unencodable(id: StoreID, underlying: String)
    /// The schema registers no collection with this name.
    case unknownCollection(String)
    /// Any other failure of the database, with its result code and message.
    case unexpected(code: Int32, message: String)
    /// A remote mediator's load failed with this error (the rows shown stay).
    case remote(RemoteFailure)
    /// An edge of a collection a mediator fills has no stored remote key: the edge row's, or `nil` for an
    /// empty collection. The direction fails with it instead of asking the server for a wrong page.
    case missingRemoteKey(id: StoreID?)
}
