import CHeapStats
import Reactive
import Stapler

// The rows, source and paginator of P7, P8 and P9 (Benchmarks/PagingBenchmarks), shared with the profiling
// runner.

/// One row of the bounded list: 16 bytes, no reference, as P1's rows.
public struct BoundedRow: Sendable, Equatable, Codable {
    /// The row's id: its index in the source.
    public let id: Int
    /// A payload.
    public let score: Double

    /// A row.
    public init(id: Int, score: Double) {
        self.id = id
        self.score = score
    }
}

/// An offset + total response of bounded rows; `Codable`, so a saved list of them encodes (P8).
public struct BoundedRowsResponse: PaginatedResponse, Codable {
    /// The rows of the page.
    public let items: [BoundedRow]
    /// The rows of the source.
    public let total: Int

    /// A response.
    public init(items: [BoundedRow], total: Int) {
        self.items = items
        self.total = total
    }
}

/// The paginator of P7 and P8: rows, offsets, no query, the response as metadata, no error.
public typealias BoundedRowList = Paginator<BoundedRow, Int, Void, BoundedRowsResponse, Never>

/// Counts the requests a source received (the benchmark runs on one thread).
public final class RequestCounter: @unchecked Sendable {
    // Guarded by the benchmark's single thread: the source is synchronous.
    /// How many requests the source received.
    @exclusivity(unchecked) public var count = 0

    /// A counter at 0.
    public init() {}
}

/// A synchronous offset source over `total` rows that counts its requests in `counter`.
public func boundedSource(total: Int, counter: RequestCounter) -> PageSource<
    BoundedRow, Int, Void, BoundedRowsResponse, Never
> {
    .offset { offset, size, _ in
        counter.count += 1
        let end = min(offset + size, total)
        let rows = (offset..<max(offset, end)).map { BoundedRow(id: $0, score: Double($0)) }
        return SignalProducer(value: BoundedRowsResponse(items: rows, total: total))
    }
}

/// The latest `items` snapshot an observer received, and the live heap's peak while it ran.
public final class LatestItems: @unchecked Sendable {
    // Guarded by the benchmark's single thread: every notification arrives on the thread that loads.
    /// The latest `items` snapshot received.
    @exclusivity(unchecked) public var items = PagedItems<BoundedRow>()
    /// How many snapshots were received.
    @exclusivity(unchecked) public var updates = 0
    /// The most the live heap grew past ``baselineHeap`` while sampling.
    @exclusivity(unchecked) public var peakHeap = 0
    /// The live heap when sampling started.
    @exclusivity(unchecked) public var baselineHeap = 0
    /// Whether each snapshot samples the live heap.
    @exclusivity(unchecked) public var samplesHeap = false

    /// An observer that has received nothing.
    public init() {}

    /// Starts sampling the live heap: ``peakHeap`` becomes the most it grew past this point.
    public func startSampling() {
        samplesHeap = true
        peakHeap = 0
        baselineHeap = Int(stapler_live_heap_bytes())
    }

    /// Keeps `items` as the latest snapshot and samples the live heap if asked to.
    public func keep(_ items: PagedItems<BoundedRow>) {
        self.items = items
        updates += 1
        if samplesHeap {
            peakHeap = max(peakHeap, Int(stapler_live_heap_bytes()) - baselineHeap)
        }
    }
}
