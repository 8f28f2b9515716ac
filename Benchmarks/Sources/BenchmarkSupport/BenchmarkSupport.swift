import Benchmark
import Scenarios

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How this run is configured: the full run whose figures go into `Benchmarks/README.md`, or the short
/// smoke run of CI (`STAPLER_BENCHMARK_SMOKE=1`), which counts allocations only.
public enum Run {
    /// Whether this is the CI smoke run.
    public static let isSmoke: Bool = getenv("STAPLER_BENCHMARK_SMOKE") != nil

    /// The size of a workload: `full` in the full run, a hundredth of it in the smoke run.
    ///
    /// - Parameter full: The size the issue sets for the scenario.
    /// - Returns: The size to run now.
    public static func size(_ full: Int) -> Int {
        isSmoke ? max(full / 100, 1) : full
    }

    /// The custom metric of ``Scenario/Measures/peakHeap`` scenarios.
    public static let peakHeapMetric = BenchmarkMetric.custom(
        "Peak heap (% of items)", polarity: .prefersSmaller, useScalingFactor: false)

    /// The configuration of a scenario's benchmark.
    ///
    /// The full run measures wall time and malloc counts (plus what `measures` adds); the smoke run
    /// measures malloc counts only, which do not depend on the machine's load, and checks them against
    /// the thresholds of `Thresholds/<toolchain>/` with `allowedMallocs` of tolerance at p90.
    ///
    /// - Parameters:
    ///   - measures: What the scenario measures besides wall time and malloc counts.
    ///   - allowedMallocs: How many mallocs per iteration above or below the threshold still pass.
    /// - Returns: The configuration.
    public static func configuration(
        _ measures: Scenario.Measures,
        allowedMallocs: Int = 8
    ) -> Benchmark.Configuration {
        let metrics: [BenchmarkMetric]
        switch (isSmoke, measures) {
        case (true, _): metrics = [.mallocCountTotal]
        case (false, .standard): metrics = [.wallClock, .mallocCountTotal]
        case (false, .memory):
            metrics = [.wallClock, .mallocCountTotal, .memoryLeakedBytes, .peakMemoryResidentDelta]
        case (false, .peakHeap): metrics = [peakHeapMetric]
        }
        return .init(
            metrics: metrics,
            timeUnits: .microseconds,
            // One warm-up iteration in the smoke run too: the first run of a process allocates the
            // runtime's metadata for the generic types it meets first, which would make a count depend
            // on which scenario happens to run first rather than on the code it measures.
            warmupIterations: 1,
            maxDuration: .seconds(isSmoke ? 2 : 10),
            maxIterations: isSmoke ? 3 : 10,
            thresholds: metrics.contains(.mallocCountTotal)
                ? [.mallocCountTotal: .init(absolute: [.p90: allowedMallocs])] : [:]
        )
    }
}

/// Registers a benchmark for each of `scenarios` (the smoke run skips the peak-heap ones, which count
/// no mallocs).
///
/// - Parameter scenarios: The scenarios of one benchmark target.
public func register(_ scenarios: [Scenario]) {
    for scenario in scenarios where !(Run.isSmoke && scenario.measures == .peakHeap) {
        let size = Run.size(scenario.size)
        let allowedMallocs = 8 + scenario.unsteadyMallocsPerPage * (size + 99) / 100
        let configuration = Run.configuration(scenario.measures, allowedMallocs: allowedMallocs)
        Benchmark(
            scenario.name, configuration: configuration,
            closure: { benchmark in
                let meter = Meter(
                    start: { benchmark.startMeasurement() },
                    stop: { benchmark.stopMeasurement() },
                    record: { benchmark.measurement(Run.peakHeapMetric, $0) })
                scenario.run(size, meter)
            },
            setup: scenario.prepare.map { prepare in { prepare(size) } })
    }
}
