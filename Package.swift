// swift-tools-version: 6.2
import PackageDescription

/// Settings every library target shares (the Swift 6 language mode is set package-wide below).
///
/// In debug builds (the test suite), `STAPLER_INTERNAL_CHECKS` makes the libraries' state machines check
/// their invariants after every step (a paging transition is legal, a load is in flight exactly while
/// loading, a buffer stays within its limit); release builds compile those checks out, so they cost
/// nothing.
let librarySettings: [SwiftSetting] = [
    .define("STAPLER_INTERNAL_CHECKS", .when(configuration: .debug))
]

/// Settings of the test targets and their support code: unoptimised even in a release build.
///
/// CI builds the tests in release only to run the trap tests against the libraries compiled with `-O` (a
/// trap must keep its message there); optimising the test code itself only made that build take longer
/// (6 minutes instead of 9 on two cores).
let testSettings: [SwiftSetting] = [
    .unsafeFlags(["-Onone", "-no-whole-module-optimization"], .when(configuration: .release))
]

let package = Package(
    name: "Stapler",
    // `Duration` sets the floor. `Synchronization` is imported in one place, `AtomicWord`
    // (Sources/Reactive/Machinery/AtomicWord.swift), used where a benchmark shows an atomic pays: the
    // paging gate (Sources/Stapler/Engine/PagingGate.swift; P2/P3: about 40 ns and 290 instructions per
    // no-op call through the engine's lock, under 1 ns and 8 instructions through the atomic), the flag
    // disposable of a constant producer's run (R6: 4,010 instructions and 3 allocations per action
    // execution, against 4,719 and 4 with a locked disposable), and the version of a derived signal's
    // observer list (`SoleRecipient`; R3: 441 instructions and 39 ns per value through `map`, `filter`,
    // `map`, against 637 and 61 with a lock round trip per link). On Apple systems below macOS 15 / iOS 18
    // each word falls back to a lock at run time, so the floor stays here; `-D STAPLER_ATOMICS_FALLBACK`
    // forces that fallback anywhere, and CI runs the whole suite so.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "Stapler", targets: ["Stapler"]),
        // Fake sources, waiting until a list is settled, scroll simulation and update checks for the apps'
        // own tests; it imports neither XCTest nor Testing, so it works under both and in previews.
        .library(name: "StaplerTesting", targets: ["StaplerTesting"]),
        // The SQLite store: links the system's SQLite (the SDK's on Apple platforms, libsqlite3 on Linux).
        .library(name: "StaplerSQLite", targets: ["StaplerSQLite"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    targets: [
        .target(name: "Reactive", swiftSettings: librarySettings),
        .target(name: "Stapler", dependencies: ["Reactive"], swiftSettings: librarySettings),
        .target(name: "StaplerTesting", dependencies: ["Reactive", "Stapler"], swiftSettings: librarySettings),
        // The system's SQLite, found with pkg-config; no package dependency.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "StaplerSQLite", dependencies: ["Stapler", "Reactive", "CSQLite"], swiftSettings: librarySettings),
        // Demo/README.md is the Demo's tour, not a source or a resource.
        .executableTarget(
            name: "Demo", dependencies: ["Stapler", "Reactive", "StaplerSQLite"], path: "Demo", exclude: ["README.md"]),
        .target(
            name: "TestSupport", dependencies: ["Reactive"], path: "Tests/TestSupport", swiftSettings: testSettings),
        // Counts the test thread's heap allocations (interposes malloc; compiled out under sanitizers), for
        // the test that delivery allocates nothing. Only the reactive tests link it.
        .target(name: "MallocCounter", path: "Tests/MallocCounter"),
        .testTarget(
            name: "ReactiveTests", dependencies: ["Reactive", "TestSupport", "MallocCounter"],
            swiftSettings: testSettings),
        .testTarget(
            name: "StaplerTests", dependencies: ["Stapler", "StaplerTesting", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "StaplerTestingTests", dependencies: ["StaplerTesting", "Stapler", "Reactive", "TestSupport"],
            swiftSettings: testSettings),
        // One conformance suite over both stores, and SQLite files that are corrupt, locked, read-only or full.
        .testTarget(
            name: "StaplerStoreTests", dependencies: ["Stapler", "StaplerSQLite", "CSQLite", "Reactive", "TestSupport"],
            swiftSettings: testSettings),
        // Runs the built Demo binary against Tests/Fixtures/paging_server.py; depending on the Demo
        // target makes `swift test` build it first.
        .testTarget(
            name: "DemoIntegrationTests", dependencies: ["Demo", "Stapler", "Reactive"], swiftSettings: testSettings),
    ],
    swiftLanguageModes: [.v6]
)
