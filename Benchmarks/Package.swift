// swift-tools-version: 6.2
import PackageDescription

// The benchmarks of Stapler: a package of its own, so the library itself stays dependency-free.
// Run them from this directory with `swift package benchmark` (see README.md).
let package = Package(
    name: "StaplerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the benchmarks build whatever the checkout's directory is called.
        .package(name: "Stapler", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // The live heap of glibc's allocator, for P1's peak memory.
        .target(name: "CHeapStats"),
        // The system's SQLite, for the floor of the store benchmarks (the library's own CSQLite is no product).
        .systemLibrary(
            name: "CSQLiteFloor", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // Every scenario, as plain functions: the benchmarks and the profiling runner share them.
        .target(
            name: "Scenarios",
            dependencies: [
                "CHeapStats",
                "CSQLiteFloor",
                .product(name: "Reactive", package: "Stapler"),
                .product(name: "Stapler", package: "Stapler"),
                .product(name: "StaplerSQLite", package: "Stapler"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .target(
            name: "BenchmarkSupport",
            dependencies: ["Scenarios", .product(name: "Benchmark", package: "benchmark")]
        ),
        .executableTarget(
            name: "ReactiveBenchmarks",
            dependencies: ["BenchmarkSupport", "Scenarios", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/ReactiveBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PagingBenchmarks",
            dependencies: ["BenchmarkSupport", "Scenarios", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/PagingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: ["BenchmarkSupport", "Scenarios", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one scenario without the harness, for valgrind's callgrind (see Sources/Profile/main.swift).
        .executableTarget(name: "Profile", dependencies: ["Scenarios"]),
    ],
    swiftLanguageModes: [.v6]
)
