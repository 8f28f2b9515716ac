import Foundation
import Testing

/// The scene of the default run whose server hangs: the paginator's `loadTimeout` fails the page and
/// its `AutoRetry` asks for it again, on the simulation's clock.
@Suite("Demo's scene with a server that hangs")
struct DemoHangingServerTests {
    @Test("the page that hangs times out, the policy retries it by itself, and the feed loads to its end")
    func hangTimesOutThenRetries() async throws {
        let run = try await DemoProcess.run(["--speed", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            "A server that hangs: PagingPolicy's loadTimeout fails the page, AutoRetry asks again",
            "demo       policy                  loadTimeout 2000 ms, autoRetry at most 8 retries",
            "server     request                 GET /feed?offset=10&limit=10 (scripted: the server hangs",
            "paginator  state                   loadingMore → errorLoadingMore(the load timed out)",
            "paginator  loadStates              append loading → failed(the load timed out)",
            "paginator  stopReason              nil → failed(the load timed out)",
            "paginator  errorsAfterFirstPage    the load timed out",
            "server     disposed                GET /feed?offset=10&limit=10: the paginator gave up",
            "paginator  state                   errorLoadingMore → loadingMore",
            "paginator  stopReason              failed(the load timed out) → nil",
            "paginator  stopReason              nil → endOfList",
            "feed         30 of the 30 headlines, the end reached, state data",
            "feed policy  1 time-out, 1 automatic retry, no Retry tapped",
            "feed server  4 requests: 3 answered, 0 failed, 1 hung",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
        // Nobody taps Retry in this scene (up to the next one): the policy does it.
        let scene = try #require(log.range(of: "A server that hangs"))
        let nextScene =
            log.range(of: "── A long list", range: scene.upperBound..<log.endIndex)?.lowerBound ?? log.endIndex
        #expect(!log[scene.lowerBound..<nextScene].contains("retry()"))
    }

    @Test("the timeout fires loadTimeout after the request, the retry a jittered backoff after the timeout")
    func timingOnTheSimulationClock() async throws {
        let run = try await DemoProcess.run(["--speed", "0"])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let scene = try #require(lines.firstIndex { $0.contains("A server that hangs") })
        func time(ofFirst text: String) throws -> Double {
            let line = try #require(lines[scene...].first { $0.contains(text) }, "missing: \(text)")
            let stamp = try #require(line.split(separator: " ").first, "\(line)")
            return try #require(Double(stamp.dropLast()), "\(line)")
        }
        let hung = try time(ofFirst: "(scripted: the server hangs")
        let timedOut = try time(ofFirst: "errorLoadingMore(the load timed out)")
        let retried = try time(ofFirst: "errorLoadingMore → loadingMore")
        #expect(abs(timedOut - hung - 2.0) < 0.0005, "the timeout is 2 s of simulated time")
        // AutoRetry's first delay: 500 ms ± 25 % jitter.
        #expect((0.375...0.625).contains(retried - timedOut), "\(retried - timedOut)")
    }

    @Test("the scene repeats line for line with the same seed, jitter included")
    func repeatable() async throws {
        let arguments = ["--speed", "0", "--failure-rate", "0.4", "--retries", "20", "--seed", "5"]
        let first = try await DemoProcess.run(arguments)
        let second = try await DemoProcess.run(arguments)
        #expect(first.status == 0, "\(first.standardOutput)")
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput.contains("feed         30 of the 30 headlines, the end reached"))
    }

    @Test("with --retries 0 there is no automatic retry: the timeout stands and the run gives up")
    func noAutomaticRetry() async throws {
        // A short shop list with no random failures, so that the run reaches the scene.
        let run = try await DemoProcess.run(["--speed", "0", "--items", "20", "--failure-rate", "0", "--retries", "0"])
        #expect(run.status == 3, "\(run.standardOutput)")
        let log = run.standardOutput
        #expect(log.contains("no autoRetry (--retries 0)"))
        #expect(log.contains("paginator  stopReason              nil → failed(the load timed out)"))
        #expect(log.contains("gives up"))
        #expect(log.contains("feed policy  1 time-out, 0 automatic retries, then the user gave up"))
        #expect(log.contains("invariants   all held"))
    }
}
