import Benchmark
import BenchmarkSupport
import Scenarios

/// The custom metric of P7's peak-heap scenarios: the live heap's peak in percent of the size of 30
/// pages of rows (under 100 is under the budget).
let peakHeapOfBudgetMetric = BenchmarkMetric.custom(
    "Peak heap (% of 30 pages)", polarity: .prefersSmaller, useScalingFactor: false)

/// Registers P7 and P8 like every other scenario, except that a peak-heap scenario records its figure
/// against 30 pages' size rather than the items' size (the smoke run skips it, as it skips P1's).
///
/// - Parameter scenarios: The scenarios of the bounded list and of restoration.
func registerBounded(_ scenarios: [Scenario]) {
    register(scenarios.filter { $0.measures != .peakHeap })
    for scenario in scenarios where scenario.measures == .peakHeap && !Run.isSmoke {
        var configuration = Run.configuration(.peakHeap)
        configuration.metrics = [peakHeapOfBudgetMetric]
        Benchmark(scenario.name, configuration: configuration) { benchmark in
            let meter = Meter(
                start: { benchmark.startMeasurement() }, stop: { benchmark.stopMeasurement() },
                record: { benchmark.measurement(peakHeapOfBudgetMetric, $0) })
            scenario.run(Run.size(scenario.size), meter)
        }
    }
}
