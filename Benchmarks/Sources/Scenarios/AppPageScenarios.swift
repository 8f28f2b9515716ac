import Dispatch
import Reactive
import Stapler
import Synchronization

// P1a and P1r (issue 30, "Performance"): what an app pays per page, beside P1's synthetic source.
//
// P1a loads N rows in pages of 100 from an `async` source (each load runs in a `Task` of its own, as a
// network client's request does) into a `Paginator` that delivers on a serial `QueueScheduler` of its own,
// to one observer that keeps every `items` snapshot. The benchmark's thread asks for the next page only
// once the previous one has reached that observer, as a screen scrolled to its bottom would. Nothing is
// awaited inside the load (no network): what is measured is the task, the engine and the hop.
// P1a-delivery is the same load timed on the delivery queue: the CPU time of the queue's work per page,
// which is what an app's main thread pays when it is the delivery queue. P1a-floor is the task and the
// hop with no paginator.
//
// P1r is P1 (a `Stapler`, synchronous loads) with a producer that has a run core,
// `SignalProducer { observer, _ in ... }`, as any real source's producer has, instead of
// `SignalProducer(value:)`, which the library runs straight into its observer.

/// The paginator of P1a: P1's rows and responses, no query, no error.
typealias AsyncRowList = Paginator<Row, Int, Void, RowsResponse, Never>

/// An `async` offset source over `total` rows: every load is a `Task` that makes its page and returns it.
func asyncSource(total: Int) -> PageSource<Row, Int, Void, RowsResponse, Never> {
    .offset { (offset: Int, size: Int, _: Void) async -> RowsResponse in
        RowsResponse(items: rows(from: offset, count: min(size, total - offset)), total: total)
    }
}

/// The paginator of P1a, over `total` rows in pages of 100, delivering on `scheduler`.
///
/// The one place that spells the paginator's options, so that a copy of this package measuring an older
/// checkout (whose initializers differ) adapts one call.
func asyncList(total: Int, deliveringOn scheduler: any Scheduler) -> AsyncRowList {
    AsyncRowList(source: asyncSource(total: total), options: PagingOptions(pageSize: 100, deliveringOn: scheduler))
}

/// A synchronous offset source over `total` rows whose producers have a run core: each run sends its page
/// and completes from the start handler, as a producer wrapping a callback does when it answers at once.
func runCoreSource(total: Int) -> @Sendable (_ offset: Int, _ size: Int) -> SignalProducer<RowsResponse, Never> {
    { offset, size in
        SignalProducer { observer, _ in
            let page = rows(from: offset, count: min(size, total - offset))
            observer.send(value: RowsResponse(items: page, total: total))
            observer.sendCompleted()
        }
    }
}

/// Keeps every snapshot the delivery queue's observer receives and tells the benchmark's thread each
/// time one arrives.
final class DeliveredSnapshots: @unchecked Sendable {
    // `snapshots` is guarded by the delivery queue: only the observer writes it, one delivery at a time,
    // and the benchmark's thread reads it only after `delivered` was signalled for the last page.
    @exclusivity(unchecked) var snapshots: [PagedItems<Row>] = []
    /// Signalled once per snapshot kept, on the delivery queue.
    let delivered = DispatchSemaphore(value: 0)
    /// When given, runs the signal in an untimed action after the delivery (P1a-delivery, whose figure must
    /// not include waking the benchmark's thread, a system call that costs microseconds in a VM); when
    /// `nil`, the observer signals at once, allocating nothing.
    private let handOff: (@Sendable (_ signal: @escaping @Sendable () -> Void) -> Void)?

    init(handOff: (@Sendable (_ signal: @escaping @Sendable () -> Void) -> Void)? = nil) {
        self.handOff = handOff
    }

    func keep(_ items: PagedItems<Row>) {
        snapshots.append(items)
        if let handOff {
            handOff { [delivered] in delivered.signal() }
        } else {
            delivered.signal()
        }
    }
}

/// A serial `QueueScheduler` that adds up how long the actions it runs take.
///
/// The figure is the queue's busy time on the monotonic clock, from the start of each action to its end,
/// whatever the action does (the engine's delivery, the properties' new values, the observer). Dispatch's
/// own work around an action (waking the queue's thread, dequeuing) is not counted, nor are the actions
/// of ``scheduleUntimed(_:)``.
final class TimedQueueScheduler: Scheduler {
    private let queue = QueueScheduler(label: "P1a-delivery")
    /// Nanoseconds of the actions run so far.
    private let busy = Atomic<UInt64>(0)

    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        queue.schedule {
            let start = DispatchTime.now().uptimeNanoseconds
            action()
            self.busy.add(DispatchTime.now().uptimeNanoseconds - start, ordering: .relaxed)
        }
    }

    /// Runs `action` on the queue after the actions scheduled so far, without timing it.
    ///
    /// - Parameter action: Work that is not the delivery's (the benchmark's own hand-off).
    func scheduleUntimed(_ action: @escaping @Sendable () -> Void) {
        _ = queue.schedule(action)
    }

    /// Waits for every action scheduled so far.
    ///
    /// - Returns: The nanoseconds those actions took.
    func drain() -> UInt64 {
        let done = DispatchSemaphore(value: 0)
        _ = queue.schedule { done.signal() }
        done.wait()
        return busy.load(ordering: .relaxed)
    }
}

/// Loads `items` rows into `list` page by page, each page asked for once its snapshot reached the
/// observer (`keeper`) on the delivery queue; `meter` measures from the first request to the last
/// delivery.
func loadEachDelivered(_ list: AsyncRowList, items: Int, keeper: DeliveredSnapshots, meter: Meter) {
    list.items.signal.observeValues { keeper.keep($0) }
    meter.start()
    list.refresh()
    keeper.delivered.wait()
    for _ in 1..<(items + 99) / 100 {
        list.loadNextPage()
        keeper.delivered.wait()
    }
    meter.stop()
}

/// Checks that `list` loaded `items` rows and that its observer kept one snapshot per page.
func checkDelivered(_ list: AsyncRowList, _ keeper: DeliveredSnapshots, items: Int, _ name: String) {
    check(list.items.value.count == items, "\(name) loaded \(list.items.value.count) of \(items)")
    check(keeper.snapshots.count == (items + 99) / 100, "\(name) kept \(keeper.snapshots.count) snapshots")
    check(keeper.snapshots.last?.last?.id == items - 1, "\(name)'s last snapshot ends wrong")
}

/// The pages P1a's floor keeps, appended on its delivery queue.
final class FloorDeliveries: Sendable {
    let pages = Mutex<[[Row]]>([])
    let delivered = DispatchSemaphore(value: 0)
}

/// P1a's floor: the task and the hop of each page, with no paginator.
///
/// Per page, a `Task` makes the page, then hands it to a serial `QueueScheduler` whose action keeps it and
/// tells the benchmark's thread, which waits for it before the next page.
///
/// - Returns: The pages kept, for the caller to check after the measurement.
func loadAsyncFloor(items: Int, meter: Meter) -> [[Row]] {
    let queue = QueueScheduler(label: "P1a-floor")
    let floor = FloorDeliveries()
    meter.start()
    var offset = 0
    while offset < items {
        let start = offset
        Task {
            let page = rows(from: start, count: min(100, items - start))
            _ = queue.schedule {
                floor.pages.withLock { $0.append(page) }
                floor.delivered.signal()
            }
        }
        floor.delivered.wait()
        offset += 100
    }
    meter.stop()
    return floor.pages.withLock { $0 }
}

/// The smoke run's extra tolerance for P1a's malloc counts, per page.
///
/// On a 2-core machine they moved by up to 2.2 a page between runs of the same code (a task per load and
/// a delivery queue: the concurrency runtime and Dispatch allocate as they wake threads). A change of a
/// few allocations per page still shows.
let asyncMallocSlackPerPage = 3

/// P1a and its floor, then P1r, at N = 100k and 1M.
func appPageScenarios() -> [Scenario] {
    [100_000, 1_000_000].flatMap { items in
        [
            Scenario("P1a-ours-N=\(items)", size: items, unsteadyMallocsPerPage: asyncMallocSlackPerPage) {
                items, meter in
                let list = asyncList(total: items, deliveringOn: QueueScheduler(label: "P1a"))
                let keeper = DeliveredSnapshots()
                loadEachDelivered(list, items: items, keeper: keeper, meter: meter)
                checkDelivered(list, keeper, items: items, "P1a")
            },
            Scenario("P1a-floor-N=\(items)", size: items, unsteadyMallocsPerPage: asyncMallocSlackPerPage) {
                items, meter in
                let pages = loadAsyncFloor(items: items, meter: meter)
                check(pages.count == (items + 99) / 100, "P1a's floor kept \(pages.count) pages")
                check(pages.last?.last?.id == items - 1, "P1a's floor ends wrong")
            },
            Scenario("P1r-ours-N=\(items)", size: items) { items, meter in
                let (stapler, keeper) = loadStapler(
                    items: items, request: runCoreSource(total: items), keeper: SnapshotKeeper(samplesHeap: false),
                    meter: meter)
                check(stapler.items.value.count == items, "P1r loaded \(stapler.items.value.count) of \(items)")
                check(keeper.snapshots.count == (items + 99) / 100, "P1r kept \(keeper.snapshots.count) snapshots")
                check(keeper.snapshots.last?.last?.id == items - 1, "P1r's last snapshot ends wrong")
            },
        ]
    }
}

/// P1a-delivery at N = 100k and 1M: P1a's load with its delivery queue timed.
///
/// The scenario records the queue's busy time per page, in nanoseconds (its own figure: it measures no
/// wall time and no mallocs).
public func appDeliveryScenarios() -> [Scenario] {
    [100_000, 1_000_000].map { items in
        Scenario("P1a-delivery-N=\(items)", size: items) { items, meter in
            let queue = TimedQueueScheduler()
            let list = asyncList(total: items, deliveringOn: queue)
            let keeper = DeliveredSnapshots { queue.scheduleUntimed($0) }
            let before = queue.drain()
            loadEachDelivered(list, items: items, keeper: keeper, meter: .none)
            let busy = queue.drain() - before
            checkDelivered(list, keeper, items: items, "P1a-delivery")
            meter.record(Int(busy) / ((items + 99) / 100))
        }
    }
}
