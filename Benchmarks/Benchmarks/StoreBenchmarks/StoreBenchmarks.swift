import Benchmark
import BenchmarkSupport
import Scenarios

// S1-S3: the local store (SQLiteStore, MemoryStore) beside the floor of raw SQLite; see
// Sources/Scenarios/StoreScenarios.swift and README.md. The store files are built once per process, before
// the first benchmark that needs them, and removed when it exits.
let benchmarks: @Sendable () -> Void = {
    register(storeScenarios())
}
