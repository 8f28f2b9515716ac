import Foundation
import Testing

/// The default run of `Demo`: the scripted session against the simulated backend.
@Suite("Demo's simulated session")
struct DemoSimulationTests {
    @Test("the default session plays every chapter, keeps every invariant and exits 0")
    func defaultSession() async throws {
        let run = try await DemoProcess.run(["--speed", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            "refresh()               opens the list",
            "paginator  items                   reloaded 0..<10: ids 1…10",
            "paginator  items                   appended 10..<20 of 20: ids 11…20",
            "loadingMore → errorLoadingMore(source error: 503 Service Unavailable)",
            "errorsAfterFirstPage    source error: 503 Service Unavailable",
            "retry()                 taps Retry",
            "pulls to refresh while page 5 loads",
            "server     cancelled               GET /products?offset=40&limit=10",
            "refresh(query:)",
            "isEndReached            false → true",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
    }

    @Test("the same seed plays the same session, line for line; another seed plays another")
    func repeatable() async throws {
        let arguments = ["--speed", "0", "--failure-rate", "0.3", "--items", "40", "--page-size", "7"]
        let first = try await DemoProcess.run(arguments + ["--seed", "11"])
        let second = try await DemoProcess.run(arguments + ["--seed", "11"])
        let other = try await DemoProcess.run(arguments + ["--seed", "12"])
        #expect(first.status == 0)
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput != other.standardOutput)
    }

    @Test("a high failure rate ends with every item after retries", arguments: [UInt64(1), 7, 2024])
    func highFailureRate(seed: UInt64) async throws {
        let run = try await DemoProcess.run([
            "--speed", "0", "--failure-rate", "0.5", "--seed", "\(seed)", "--retries", "30",
        ])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("the end reached"))
        #expect(run.standardOutput.contains("invariants   all held"))
    }

    @Test("a list too short for the whole story still plays to its end", arguments: [0, 1, 5, 10, 25])
    func shortLists(items: Int) async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--items", "\(items)", "--failure-rate", "0"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("the end reached"))
    }

    @Test("every failure beyond --retries makes the run give up with status 3")
    func givingUp() async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "1", "--retries", "2"])
        #expect(run.status == 3)
        #expect(run.standardOutput.contains("gives up"))
        #expect(run.standardOutput.contains("invariants   all held"))
    }

    @Test("--help prints the options and exits 0; a bad argument exits 2")
    func commandLine() async throws {
        let help = try await DemoProcess.run(["--help"])
        #expect(help.status == 0)
        for flag in ["--page-size", "--items", "--failure-rate", "--latency", "--seed", "--url", "--print-ids"] {
            #expect(help.standardOutput.contains(flag))
        }
        let bad = try await DemoProcess.run(["--failure-rate", "2"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--failure-rate needs a number from 0.0 to 1.0, got 2"))
    }
}
