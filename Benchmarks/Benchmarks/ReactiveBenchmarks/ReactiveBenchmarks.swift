import Benchmark
import BenchmarkSupport
import Scenarios

// R1-R6: see Sources/Scenarios/ReactiveScenarios.swift and README.md.
let benchmarks: @Sendable () -> Void = {
    register(reactiveScenarios() + threadSafeFloorScenarios())
}
