// swift-tools-version: 6.1
import PackageDescription

/// Settings every library target shares: Swift 6 language mode is set package-wide below; the
/// internal invariant checks of STYLE.md habit 9 run in debug builds (the test suite) and cost nothing
/// in release builds.
let librarySettings: [SwiftSetting] = [
    .define("STAPLER_INTERNAL_CHECKS", .when(configuration: .debug))
]

let package = Package(
    name: "Stapler",
    // `Duration` sets the floor. No `Synchronization` module is used, so it stays here.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "Stapler", targets: ["Stapler"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    targets: [
        .target(name: "Reactive", swiftSettings: librarySettings),
        .target(name: "Stapler", dependencies: ["Reactive"], swiftSettings: librarySettings),
        .executableTarget(name: "Demo", dependencies: ["Stapler"], path: "Demo"),
        .target(name: "TestSupport", dependencies: ["Reactive"], path: "Tests/TestSupport"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive", "TestSupport"]),
        .testTarget(name: "StaplerTests", dependencies: ["Stapler", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
