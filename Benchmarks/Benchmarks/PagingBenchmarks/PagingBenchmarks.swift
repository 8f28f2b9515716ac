import Benchmark
import BenchmarkSupport
import Scenarios

// P1-P3: see Sources/Scenarios/PagingScenarios.swift and README.md.
let benchmarks: @Sendable () -> Void = {
    register(pagingScenarios())
}
