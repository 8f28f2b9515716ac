import Reactive
import Stapler
import StaplerTesting
import TestSupport

/// An offset page of `RowsServer`.
struct RowsPage: PaginatedResponse {
    let items: [Int]
    let total: Int
}

/// A failure of `RowsServer`; one may carry a misuse of the kit.
struct RowsError: Error, Equatable, TestKitErrorCarrying {
    var testKitError: TestKitError?
    static let unavailable = RowsError(testKitError: nil)
}

/// An offset server over rows `0..<rows` that answers after a latency on a test scheduler, fails the keys
/// it is told to, and logs every key asked for. (The kit's own tests of its driver, apart from its fake
/// sources.)
final class RowsServer: Sendable {
    typealias RowsPaginator = Paginator<Int, Int, Void, RowsPage, RowsError>

    let rows: Int
    let scheduler: TestScheduler
    let latency: Duration
    /// Every key asked for, in order.
    let requested = Locked<[Int]>([])
    /// How many more times each key fails (`Int.max`: always).
    let failing = Locked<[Int: Int]>([:])

    init(rows: Int, scheduler: TestScheduler = TestScheduler(), latency: Duration = .milliseconds(10)) {
        self.rows = rows
        self.scheduler = scheduler
        self.latency = latency
    }

    func paginator(
        pageSize: Int = 20, initialKey: Int? = nil, prefetchDistance: Int = 5, placeholders: Placeholders = .off
    ) -> RowsPaginator {
        Paginator(
            source: .offset { offset, size, _ in self.load(offset: offset, size: size) }, query: (),
            initialKey: initialKey,
            options: PagingOptions(pageSize: pageSize, prefetchDistance: prefetchDistance, placeholders: placeholders))
    }

    func load(offset: Int, size: Int) -> SignalProducer<RowsPage, RowsError> {
        requested.append(offset)
        let fails = failing.withLock { failing -> Bool in
            guard let left = failing[offset], left > 0 else { return false }
            if left != .max { failing[offset] = left - 1 }
            return true
        }
        let page = RowsPage(items: Array(offset..<min(offset + size, rows)), total: rows)
        let answer = fails ? SignalProducer<RowsPage, RowsError>(error: .unavailable) : SignalProducer(value: page)
        return answer.delay(latency, on: scheduler)
    }
}
