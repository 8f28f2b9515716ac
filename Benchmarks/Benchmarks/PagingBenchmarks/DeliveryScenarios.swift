import Benchmark
import BenchmarkSupport
import Dispatch
import Reactive
import Scenarios
import Stapler

// P9-delivery: the budget a transformed page takes on the thread that delivers it. The paginator of P9
// delivers on a serial queue that adds up how long its deliveries run; each page is loaded, then delivered
// before the next one is asked for, as a screen would see them. The transformed list does its work in the
// paginator's delivery, so the queue's time with a transformed list, less its time without one, is what
// the transform adds to each page's delivery.

/// A serial queue delivering a paginator's notifications that adds up the time its deliveries take.
final class TimedDeliveryQueue: Scheduler, @unchecked Sendable {
    // `busy` is guarded by `queue`: only its blocks read and write it (`drain` reads it in a `sync` block).
    private let queue = DispatchQueue(label: "P9-delivery")
    private var busy: UInt64 = 0

    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        queue.async {
            let start = DispatchTime.now().uptimeNanoseconds
            action()
            self.busy += DispatchTime.now().uptimeNanoseconds - start
        }
        return nil
    }

    /// Waits for every delivery scheduled so far.
    ///
    /// - Returns: The nanoseconds the queue's deliveries took so far.
    @discardableResult
    func drain() -> UInt64 {
        queue.sync { busy }
    }
}

/// Loads `items` rows into `list` in pages of 100, each page delivered on `queue` before the next is asked.
///
/// - Returns: The nanoseconds the deliveries took.
func loadDelivered(_ list: BoundedRowList, items: Int, on queue: TimedDeliveryQueue) -> UInt64 {
    let before = queue.drain()
    list.refresh()
    queue.drain()
    for _ in 1..<(items + 99) / 100 {
        list.loadNextPage()
        queue.drain()
    }
    return queue.drain() - before
}

/// The figure of P9-delivery: the delivery queue's busy time in one iteration.
let deliveryTimeMetric = BenchmarkMetric.custom(
    "Delivery thread (μs)", polarity: .prefersSmaller, useScalingFactor: false)

/// The figure of P1a-delivery: the delivery queue's busy time per page.
let deliveryTimePerPageMetric = BenchmarkMetric.custom(
    "Delivery queue per page (ns)", polarity: .prefersSmaller, useScalingFactor: false)

/// Registers delivery scenarios with their own figure, `metric` (not in the smoke run: they count no
/// mallocs).
///
/// - Parameters:
///   - scenarios: P9-delivery's or P1a-delivery's scenarios.
///   - metric: What they record: P9-delivery's busy time per load, P1a-delivery's per page.
func registerDelivery(_ scenarios: [Scenario], metric: BenchmarkMetric = deliveryTimeMetric) {
    for scenario in scenarios where !Run.isSmoke {
        var configuration = Run.configuration(.peakHeap)
        configuration.metrics = [metric]
        Benchmark(scenario.name, configuration: configuration) { benchmark in
            let meter = Meter(
                start: { benchmark.startMeasurement() }, stop: { benchmark.stopMeasurement() },
                record: { benchmark.measurement(metric, $0) })
            scenario.run(Run.size(scenario.size), meter)
        }
    }
}

/// P9-delivery at N = 100k: the delivery thread's time with P9's transformed list and without it, in
/// microseconds (the scenario's own figure).
func deliveryScenarios() -> [Scenario] {
    let items = 100_000
    return [
        Scenario("P9-delivery-transformed-N=\(items)", size: items) { items, meter in
            let queue = TimedDeliveryQueue()
            let list = BoundedRowList(
                source: boundedSource(total: items, counter: RequestCounter()),
                options: PagingOptions(pageSize: 100, deliveringOn: queue))
            let feed = list.transformed(by: feedTransform)
            let snapshots = TransformedSnapshots<FeedRow>()
            snapshots.kept.reserveCapacity(items / 100 + 1)
            feed.items.signal.observeValues { snapshots.kept.append($0) }
            let busy = loadDelivered(list, items: items, on: queue)
            meter.record(Int(busy / 1000))
            let expected = feedRowCount(items)
            check(feed.items.value.count == expected, "P9-delivery shows \(feed.items.value.count) rows of \(expected)")
        },
        Scenario("P9-delivery-untransformed-N=\(items)", size: items) { items, meter in
            let queue = TimedDeliveryQueue()
            let list = BoundedRowList(
                source: boundedSource(total: items, counter: RequestCounter()),
                options: PagingOptions(pageSize: 100, deliveringOn: queue))
            // Written only by the delivery queue's blocks, one at a time.
            let snapshots = LatestItems()
            list.items.signal.observeValues { snapshots.items = $0 }
            let busy = loadDelivered(list, items: items, on: queue)
            meter.record(Int(busy / 1000))
            check(list.items.value.count == items, "P9-delivery loaded \(list.items.value.count) of \(items)")
        },
    ]
}
