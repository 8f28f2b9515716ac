import Scenarios

// Runs one scenario once, without the benchmark harness, for a profiler:
//
//     swift build -c release --product Profile
//     valgrind --tool=callgrind .build/release/Profile "R1-ours" 1000000
//
// Instructions per value: run two sizes and divide the difference of the totals by the difference of
// the sizes, which cancels the setup. Without arguments it lists the scenarios.
let arguments = CommandLine.arguments.dropFirst()
if let name = arguments.first {
    run(name, size: arguments.dropFirst().first.flatMap { Int($0) })
} else {
    for scenario in allScenarios() {
        print("\(scenario.name)\t\(scenario.size)")
    }
}

func run(_ name: String, size: Int?) {
    guard let scenario = allScenarios().first(where: { $0.name == name }) else {
        fatalError("no scenario named \(name); run without arguments for the list")
    }
    let size = size ?? scenario.size
    scenario.run(size, .none)
    print("\(scenario.name): ran \(size)")
}
