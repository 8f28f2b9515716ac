import Foundation
import Testing

/// The chat's screen rows in the default run: a transformed list with a header per day.
@Suite("Demo's chat timeline")
struct DemoTimelineTests {
    @Test("the chat's timeline puts a header above each day, changes incrementally and logs each change")
    func dayHeaders() async throws {
        let run = try await DemoProcess.run(["--speed", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            // The newest page: no day header above it while older pages wait at the top.
            "paginator  timeline                reloaded 0..<5: 41 42 43 44 45",
            // The edits change only their rows.
            "paginator  timeline                removed 3..<4 of 5: 44",
            "paginator  timeline                updated 3..<4: 45",
            // A page above inserts its rows, with the header of the day that starts inside it.
            "paginator  timeline                inserted 0..<11 of 15: 31 32 33 34 35 36 [day 4] 37 38 39 40",
            // The first page: the first day's header once the chat's start is reached.
            "paginator  timeline                inserted 0..<11 of 48: [day 1] 1 2 3 4 5 6 7 8 9 10",
            "chat rows    66 rows: the messages under 6 day headers, 12 timeline changes, each one applied",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
        #expect(!log.contains("timeline                reloaded 0..<4"), "a page never reloads the timeline")
    }
}
