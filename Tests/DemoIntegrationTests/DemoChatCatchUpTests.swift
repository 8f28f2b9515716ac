import Foundation
import Reactive
import Stapler
import Testing

@testable import Demo

/// The chat scene alone, on a virtual playback clock, its log read from memory: live messages from the
/// socket added as local rows, then a connection that drops and a catch-up after it returns.
@Suite("Demo's chat: live messages and a catch-up after a reconnect")
@MainActor
struct DemoChatCatchUpTests {
    /// Plays the chat scene with `arguments` and returns its result and its log, line by line.
    func playChat(_ arguments: [String] = []) throws -> (result: ChatRun.Result, lines: [String]) {
        let simulation = Simulation(playback: VirtualPlaybackClock())
        let writes = LockedState<[String]>([])
        let clock = simulation.clock
        let log = Log(to: .memory(writes)) { clock.withLock { $0 } }
        let result = ChatRun(options: try DemoOptions.parse(arguments), simulation: simulation, log: log).run()
        return (result, writes.withLock { $0 })
    }

    // No time limit of its own: a test's limit counts the time it waits for a thread, which under a
    // sanitizer on a loaded 2-core machine is minutes; CI's deadline for the whole pass guards against a hang.
    @Test("live messages are local rows at the bottom; the catch-up after the reconnect brings the missed ones")
    func liveMessagesAndCatchUp() throws {
        let (result, lines) = try playChat()
        let log = lines.joined(separator: "\n")
        #expect(result.violations.isEmpty, "\(log)")
        #expect(result.complete && !result.gaveUp)

        // Each live message went through insert(contentsOf:at: .bottom), and applied.
        #expect(result.liveRows.count == 3)
        #expect(result.liveRows.allSatisfy { $0.outcome == .applied })
        let inserts = lines.filter { $0.contains("user       insert(contentsOf:at:)") }
        #expect(inserts.count == 3)
        for row in result.liveRows {
            #expect(log.contains("adds message \(row.id) at .bottom, a local row"))
        }

        // The catch-up comes after the reconnect, and its requests after it: the newest page again,
        // then the page before it (more than a page was missed), then the list changes.
        func index(_ text: String, after start: Int = 0) -> Int? {
            lines[start...].firstIndex { $0.contains(text) }
        }
        let dropped = try #require(index("server     socket                  connection lost"))
        let reconnected = try #require(index("server     socket                  connected", after: dropped))
        let catchUp = try #require(index("user       catchUp(at:maxPages:)", after: reconnected))
        #expect(result.catchUp == "started")
        let newest = try #require(
            index("server     request                 GET /chat/messages?limit=10", after: catchUp))
        let before = try #require(
            index("server     request                 GET /chat/messages?offset=40&limit=10", after: newest))
        let merged = try #require(index("paginator  items                   difference:", after: before))
        // One keyed difference: the 12 missed messages inserted, the 3 local rows updated in place.
        #expect(lines[merged].hasSuffix("difference: 0 removed, 12 inserted, 0 moved, 3 updated"), "\(lines[merged])")
        // No POST after the drop was pushed to the screen.
        #expect(!lines[dropped..<reconnected].contains { $0.contains("pushes message") })

        // Every id once, in order: the server's messages, the missed ones included, none local any more.
        #expect(result.missedIDs.count == 12)
        #expect(Set(result.ids).count == result.ids.count)
        #expect(result.ids == result.ids.sorted())
        #expect(result.ids == result.serverIDs)
        #expect(Set(result.missedIDs).isSubset(of: result.ids))
        #expect(Set(result.liveRows.map(\.id)).isSubset(of: result.ids))
        #expect(result.localRowsLeft.isEmpty)
        #expect(log.contains("no local row left, the server's copies replaced them in place"))
    }

    @Test("with random failures, a failed catch-up page is retried and the merge still ends with every id once")
    func catchUpAfterFailures() throws {
        for seed in [1, 7, 2024] {
            let (result, lines) = try playChat(["--failure-rate", "0.3", "--seed", "\(seed)", "--retries", "30"])
            #expect(result.violations.isEmpty, "seed \(seed): \(lines.joined(separator: "\n"))")
            #expect(result.complete, "seed \(seed)")
            #expect(result.ids == result.serverIDs && result.localRowsLeft.isEmpty, "seed \(seed)")
        }
    }
}
