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

    @Test("the chat scenes: opened at the newest page, paged up, edited while a page loads, reloaded whole")
    func chatScenes() async throws {
        let run = try await DemoProcess.run(["--speed", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            // a. The chat opens at its newest page (45 messages, pages of 10) and pages older ones at the top.
            "A chat opens at its newest message (first key .newest: no offset, the server's last page)",
            "server     request                 GET /chat/messages?limit=10",
            "200 OK after 86 ms: 5 of 45 messages (the newest page, offset 40)",
            "paginator  items                   reloaded 0..<5: ids 41…45",
            "paginator  loadStates              prepend idle → loading",
            "paginator  items                   inserted 0..<10 of 14: ids 31…40",
            "paginator  loadStates              prepend loading → idle(end)",
            "paginator  items                   inserted 0..<10 of 44: ids 1…10",
            // b. A deletion and an edit while the page above loads; the page then joins the edited list.
            "While older messages load, the user deletes a message and edits another",
            "paginator  items                   removed 3..<4 of 5: id 44",
            "paginator  items                   updated 3..<4: id 45",
            "chat edits   message 44 deleted: applied, message 45 edited: applied, while a page loaded",
            // c. A pull to refresh that reloads every page and changes the list once.
            "refresh(.reloadAll)     pulls to refresh: each of the 5 pages reloads, then the list changes once",
            "paginator  items                   difference: 0 removed, 1 inserted, 0 moved, 1 updated",
            // d. Live messages, then 12 missed while offline and a catch-up (DemoChatCatchUpTests).
            "chat         60 of the 60 messages, every one, the top and the end reached, state data",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
        // Every page of the reload is requested before the list changes, and it changes once.
        let reload = try #require(log.range(of: "pulls to refresh: each of the 5 pages"))
        // Up to the end of the reload (then come the live messages, which change the list again).
        let reloaded = try #require(log.range(of: "── The chat is up to date")?.lowerBound)
        let afterReload = log[reload.upperBound..<reloaded]
        #expect(afterReload.components(separatedBy: "paginator  items").count == 2)
    }

    @Test("a chat too short for every scene still plays to its end", arguments: [0, 1, 7, 10, 11])
    func shortChats(messages: Int) async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--messages", "\(messages)", "--failure-rate", "0"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("every one, the top and the end reached"))
        #expect(run.standardOutput.contains("invariants   all held"))
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
        #expect(run.standardOutput.contains("every one, the top and the end reached"))
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
        for flag in [
            "--page-size", "--items", "--messages", "--failure-rate", "--latency", "--seed", "--url", "--print-ids",
            "--timeout", "--retries", "loadTimeout", "maxRetries", "AutoRetry",
        ] {
            #expect(help.standardOutput.contains(flag))
        }
        let bad = try await DemoProcess.run(["--failure-rate", "2"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--failure-rate needs a number from 0.0 to 1.0, got 2"))
    }
}
