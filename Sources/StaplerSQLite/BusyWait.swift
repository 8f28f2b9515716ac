#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The retry policy of a connection's busy handler: wait a little and retry until `timeout` has passed
/// since the statement first found the database locked, then give up (the statement fails with
/// `SQLITE_BUSY`, reported as ``Stapler/StoreError/busy``).
final class BusyWait: @unchecked Sendable {
    // Guarded by the lock of the connection it serves: SQLite calls it on the thread running a statement
    // of that connection, which holds the connection's lock.
    private var started: ContinuousClock.Instant?
    let timeout: Duration
    let onWait: (@Sendable () -> Void)?

    init(timeout: Duration, onWait: (@Sendable () -> Void)?) {
        self.timeout = timeout
        self.onWait = onWait
    }

    /// Whether to retry after the `count`-th busy answer of one locking attempt (0 for the first).
    func shouldRetry(count: Int32) -> Bool {
        let now = ContinuousClock.now
        if count == 0 {
            started = now
            onWait?()
        }
        guard let started, now - started < timeout else { return false }
        // 0.5 ms, growing to 10 ms between tries.
        usleep(UInt32(min(Int(count) + 1, 20) * 500))
        return true
    }
}
