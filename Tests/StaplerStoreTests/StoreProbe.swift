import Foundation
import Reactive
import Stapler

/// A store that wraps another and records what lists do with it: every commit (its change) and every
/// read (the version it saw), with pause points that park the next read or commit until the test
/// resumes it.
final class StoreProbe<Row: StoreRow>: LocalStore, @unchecked Sendable {
    /// Where a pause parks.
    enum PausePoint {
        /// After a read transaction returned, before its result goes back to the caller.
        case afterRead
        /// Before a write transaction starts.
        case beforeCommit
    }

    /// One armed pause: the first read or commit that reaches its point parks until ``resume()``.
    final class Pause: Sendable {
        let point: PausePoint
        // Signalled by the parked thread, then by the test.
        private let parked = DispatchSemaphore(value: 0)
        private let resumed = DispatchSemaphore(value: 0)

        init(_ point: PausePoint) { self.point = point }

        /// Blocks the test until a thread parks here.
        func waitUntilParked() { parked.wait() }

        /// Lets the parked thread go on.
        func resume() { resumed.signal() }

        func park() {
            parked.signal()
            resumed.wait()
        }
    }

    /// A read: the data version it saw.
    struct Read: Sendable {
        let version: UInt64
    }

    let base: any LocalStore<Row>
    // Guarded by `lock`.
    private var recordedReads: [Read] = []
    private var recordedCommits: [StoreChange] = []
    private var pauses: [Pause] = []
    private var readsInFlight = 0
    private var mostReadsInFlight = 0
    private let lock = NSLock()

    init(_ base: any LocalStore<Row>) { self.base = base }

    var schema: StoreSchema<Row> { base.schema }
    var dataVersion: UInt64 { base.dataVersion }
    var changes: Signal<StoreChange, Never> { base.changes }

    func noticeExternalCommits() { base.noticeExternalCommits() }

    /// The reads so far, in order.
    var reads: [Read] { lock.withLock { recordedReads } }
    /// The most reads that ran at once so far.
    var maxConcurrentReads: Int { lock.withLock { mostReadsInFlight } }
    /// The commits so far, in order.
    var commits: [StoreChange] { lock.withLock { recordedCommits } }

    /// Arms a pause at `point` for the next read or commit that reaches it.
    func pause(at point: PausePoint) -> Pause {
        let pause = Pause(point)
        lock.withLock { pauses.append(pause) }
        return pause
    }

    @discardableResult
    func write(_ body: (inout StoreTransaction<Row>) throws -> Void) throws -> StoreChange {
        takePause(.beforeCommit)?.park()
        let change = try base.write(body)
        if !change.collections.isEmpty || !change.ids.isEmpty {
            lock.withLock { recordedCommits.append(change) }
        }
        return change
    }

    func read<Result>(_ body: (any StoreReading<Row>) throws -> Result) throws -> Result {
        lock.withLock {
            readsInFlight += 1
            mostReadsInFlight = max(mostReadsInFlight, readsInFlight)
        }
        defer { lock.withLock { readsInFlight -= 1 } }
        let (result, version) = try base.read { reader in (try body(reader), try reader.version()) }
        lock.withLock { recordedReads.append(Read(version: version)) }
        takePause(.afterRead)?.park()
        return result
    }

    private func takePause(_ point: PausePoint) -> Pause? {
        lock.withLock {
            guard let index = pauses.firstIndex(where: { $0.point == point }) else { return nil }
            return pauses.remove(at: index)
        }
    }
}
