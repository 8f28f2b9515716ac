import CSQLite
import Stapler

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

/// One SQLite connection and its cache of prepared statements.
///
/// Not thread safe: the store keeps each connection inside a `LockedState` and uses it only under that
/// lock. Every failure is mapped to a ``StoreError``.
final class SQLiteConnection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// The busy handler's state; SQLite holds an unretained pointer to it, so the connection keeps it.
    private let busy: BusyWait

    /// Opens `path` with `flags` and installs the busy handler.
    init(path: String, flags: Int32, busy: BusyWait) throws(StoreError) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StoreError.sqlite(code: result, extended: result, message: message)
        }
        self.handle = handle
        self.busy = busy
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_handler(
            handle,
            { context, count in
                guard let context else { return 0 }
                return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(count: count) ? 1 : 0
            }, Unmanaged.passUnretained(busy).toOpaque())
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The error of the connection's last failure with `code`.
    func error(_ code: Int32) -> StoreError {
        StoreError.sqlite(
            code: code, extended: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `sql`, which may hold several statements and returns no rows.
    func execute(_ sql: String) throws(StoreError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result) }
    }

    /// Rolls back the open transaction, if SQLite has not already done so (after `SQLITE_FULL`, for one).
    func rollbackIfNeeded() {
        if isInTransaction { _ = try? run("ROLLBACK") }
    }

    /// Runs `sql` with `values` and calls `row` for each result row; returns the rows the statement changed.
    @discardableResult
    func run(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) throws(StoreError) -> Void = { _ in }
    ) throws(StoreError) -> Int {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null: result = sqlite3_bind_null(statement, index)
            case .integer(let number): result = sqlite3_bind_int64(statement, index, number)
            case .text(let text): result = sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                result = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(
                        statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                        csqlite_transient())
                }
            }
            guard result == SQLITE_OK else { throw error(result) }
        }
        while true {
            let result = sqlite3_step(statement)
            switch result {
            case SQLITE_ROW: try row(SQLiteRow(statement: statement))
            case SQLITE_DONE: return Int(sqlite3_changes(handle))
            default: throw error(result)
            }
        }
    }

    /// The first column of the first row of `sql`, as an integer (`nil` without a row or for NULL).
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(StoreError) -> Int64? {
        var value: Int64?
        try run(sql, values) { row throws(StoreError) in
            if value == nil, !row.isNull(0) { value = row.integer(0) }
        }
        return value
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result) }
        statements[sql] = statement
        return statement
    }
}

/// The current row of a statement, valid during the callback that receives it.
struct SQLiteRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    /// The column's bytes where SQLite keeps them, valid until the callback returns.
    func buffer(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// The column's bytes, whether it holds a blob or a text.
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

extension StoreError {
    /// The store error of SQLite's result `code` (with its extended code and message).
    static func sqlite(code: Int32, extended: Int32, message: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_READONLY: .readOnly
        case SQLITE_FULL: .full
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_CANTOPEN: .cannotOpen(message)
        case SQLITE_IOERR: .io(code: extended)
        default: .unexpected(code: extended, message: message)
        }
    }
}
