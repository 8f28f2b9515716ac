import Scenarios

// Runs one scenario without the benchmark harness, for a profiler:
//
//     swift build -c release --product Profile
//     valgrind --tool=callgrind .build/release/Profile R1-ours 100000 2
//
// The arguments are the scenario, its size (default: the issue's) and how many times to run it (default
// 1). Instructions per operation: the difference between the totals of 2 runs and 1 run, divided by the
// size, which cancels the process's start and any setup a scenario keeps between runs (P3's list).
// scripts/benchmark-instructions.sh does that. Without arguments it lists the scenarios.
let arguments = Array(CommandLine.arguments.dropFirst())
if let name = arguments.first {
    let size = arguments.count > 1 ? Int(arguments[1]) : nil
    let runs = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    run(name, size: size, runs: runs)
} else {
    for scenario in allScenarios() {
        print("\(scenario.name)\t\(scenario.size)")
    }
}

func run(_ name: String, size: Int?, runs: Int) {
    guard let scenario = allScenarios().first(where: { $0.name == name }) else {
        fatalError("no scenario named \(name); run without arguments for the list")
    }
    let size = size ?? scenario.size
    for _ in 0..<runs {
        scenario.run(size, Meter(start: {}, stop: {}, record: { print("\(scenario.name) recorded \($0)") }))
    }
    print("\(scenario.name): ran \(runs) x \(size)")
}
