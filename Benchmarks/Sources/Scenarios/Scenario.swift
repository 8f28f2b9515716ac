/// What a scenario reports to while it runs: the benchmark harness, or the profiling runner.
public struct Meter {
    /// Starts the measured part; everything before it is setup.
    public let start: () -> Void
    /// Ends the measured part; everything after it is checking and teardown.
    public let stop: () -> Void
    /// Reports the scenario's own figure (only ``Scenario/Measures/peakHeap`` scenarios have one).
    public let record: (_ value: Int) -> Void

    /// Creates a meter from its three callbacks.
    ///
    /// - Parameters:
    ///   - start: Called when the measured part starts.
    ///   - stop: Called when the measured part ends.
    ///   - record: Called with the scenario's own figure.
    public init(start: @escaping () -> Void, stop: @escaping () -> Void, record: @escaping (_ value: Int) -> Void) {
        self.start = start
        self.stop = stop
        self.record = record
    }

    /// A meter that measures nothing, for running a scenario under a profiler.
    public static var none: Meter {
        Meter(start: {}, stop: {}, record: { _ in })
    }
}

/// One variant of one benchmark scenario: ours, the peer or the floor of R1-R6, or a paging case.
public struct Scenario {
    /// What a scenario's benchmark measures besides wall time and malloc counts.
    public enum Measures: Sendable {
        /// Wall time and malloc counts only.
        case standard
        /// Also the bytes still allocated at the end and the resident memory's peak.
        case memory
        /// Only the peak of the live heap, in percent of the items' own size, which the scenario records.
        case peakHeap
    }

    /// The name of the benchmark: `"<scenario>-<variant>"`, such as `"R1-ours"`.
    ///
    /// No spaces: the name also names the scenario's threshold file.
    public let name: String
    /// The size the issue sets: values sent, calls made or items loaded.
    public let size: Int
    /// What the benchmark measures.
    public let measures: Measures
    /// How many allocations per page of 100 items the smoke run tolerates on top of its fixed tolerance:
    /// 0 for a scenario on one thread, whose count is exact; more for one whose count depends on how its
    /// threads met (a task per load and a delivery queue: the concurrency runtime and Dispatch allocate
    /// as they wake threads).
    public let unsteadyMallocsPerPage: Int
    /// Runs the scenario once at `size`, calling `meter.start()` and `meter.stop()` around the measured
    /// part.
    public let run: (_ size: Int, _ meter: Meter) -> Void
    /// Builds what the scenario's iterations share (a store file of the size), before the first iteration
    /// and outside the benchmark's time; `nil` when `run` sets everything up itself.
    public let prepare: ((_ size: Int) -> Void)?

    /// Creates a scenario.
    ///
    /// - Parameters:
    ///   - name: The benchmark's name.
    ///   - size: The size the issue sets.
    ///   - measures: What the benchmark measures.
    ///   - unsteadyMallocsPerPage: The smoke run's extra tolerance per page of 100 items; see
    ///     ``unsteadyMallocsPerPage``.
    ///   - prepare: Builds what the iterations share at a given size, before the first one; see ``prepare``.
    ///   - run: Runs the scenario once at a given size.
    public init(
        _ name: String, size: Int, measures: Measures = .standard, unsteadyMallocsPerPage: Int = 0,
        prepare: ((_ size: Int) -> Void)? = nil, run: @escaping (_ size: Int, _ meter: Meter) -> Void
    ) {
        self.prepare = prepare
        self.name = name
        self.size = size
        self.measures = measures
        self.unsteadyMallocsPerPage = unsteadyMallocsPerPage
        self.run = run
    }
}

/// Every scenario, in the order of the issue; the last two, S4 and S5, run through `Profile` only (each
/// prints its figures: resident memory, window reads).
public func allScenarios() -> [Scenario] {
    reactiveScenarios() + threadSafeFloorScenarios() + pagingScenarios() + appDeliveryScenarios() + transformScenarios()
        + storeScenarios() + storeScrollScenarios() + storeBurstScenarios()
}

/// Where observers put what they receive, so the optimizer cannot drop the work.
///
/// Every variant of a scenario (ours, the peer and the floor) writes into the same kind of sink.
public final class Sink: @unchecked Sendable {
    // Guarded by the benchmark's single thread: every scenario runs on one thread.
    /// The sum of every value taken.
    @exclusivity(unchecked) public var total = 0

    /// Creates an empty sink.
    public init() {}

    /// Adds `value` to the total.
    ///
    /// - Parameter value: What an observer received.
    @inline(__always)
    public func take(_ value: Int) {
        total &+= value
    }
}

/// Returns `value` through a call the optimizer cannot see into, so a closure stays a real indirect
/// call (the floor of every scenario) instead of being inlined into the loop.
///
/// - Parameter value: Any value.
/// - Returns: `value`.
@inline(never)
public func opaque<Value>(_ value: Value) -> Value {
    value
}

/// Traps with `message` unless `condition` holds: a scenario that did not do its work measured nothing.
///
/// - Parameters:
///   - condition: What the scenario must have achieved.
///   - message: What went wrong.
public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard condition else { fatalError("benchmark scenario failed: \(message())") }
}
