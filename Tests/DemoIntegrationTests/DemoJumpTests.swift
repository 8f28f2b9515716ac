import Foundation
import Testing

/// The jump scene of the default run: a long list with placeholders, where a drag of the scroll bar far
/// into them loads the page under the finger directly and supersedes the loads in flight.
@Suite("Demo's jump to the middle")
struct DemoJumpTests {
    /// The lines of the scene, from its chapter to the summary.
    static func scene(of log: String) throws -> [String] {
        let start = try #require(log.range(of: "── A jump to the middle"), "the scene did not play")
        let end = log.range(of: "── Summary", range: start.upperBound..<log.endIndex)?.lowerBound ?? log.endIndex
        return log[start.lowerBound..<end].split(separator: "\n").map(String.init)
    }

    @Test("P32: a drag far into the placeholders loads that page directly; the loads it makes useless are disposed")
    func P32_jumpsToTheMiddle() async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        let lines = try Self.scene(of: log)
        for expected in [
            "── A jump to the middle: 120 products with placeholders, pages of 10, jumpThreshold 10",
            "paginator  slots                   120 slots: 0 placeholders, rows 0..<10 loaded (ids 1…10), "
                + "110 placeholders",
            "user       preload(index: 60)      drags the scroll bar to row 60, 51 slots past the loaded rows",
            "server     cancelled               GET /products?offset=10&limit=10: the paginator disposed the request",
            "user       preload(index: 96)      drags on to row 96 before that page arrives",
            "server     cancelled               GET /products?offset=60&limit=10: the paginator disposed the request",
            "paginator  slots                   120 slots: 90 placeholders, rows 90..<100 loaded (ids 91…100), "
                + "20 placeholders",
            "paginator  slots                   120 slots: 80 placeholders, rows 80..<110 loaded (ids 81…110), "
                + "10 placeholders",
        ] {
            #expect(lines.contains { $0.hasSuffix(expected) || $0.hasPrefix(expected) }, "missing: \(expected)")
        }
        let requested = DemoMemoryBoundTests.requestedOffsets(lines)
        #expect(requested == [0, 10, 60, 90, 80, 100], "no page between the first and the jump target")
        #expect(!lines.contains { $0.contains("INVARIANT BROKEN") })
        for expected in [
            "jump         120 slots at all times; jumped to row 60, then to row 96: 30 products loaded (ids 81…110), "
                + "80 placeholders before, 10 after",
            "jump server  6 requests: 4 answered, 2 cancelled (superseded by a jump), none for the pages jumped over",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
    }

    @Test(
        "P32: other sizes jump or skip the scene, and every invariant holds",
        arguments: [
            ["--page-size", "7", "--long-items", "50"], ["--page-size", "3"], ["--long-items", "30"],
            ["--page-size", "25"],
        ])
    func P32_variants(arguments: [String]) async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0"] + arguments)
        #expect(run.status == 0, "\(run.standardOutput)")
        let lines = try Self.scene(of: run.standardOutput)
        #expect(!lines.contains { $0.contains("INVARIANT BROKEN") })
        #expect(run.standardOutput.contains("invariants   all held"))
    }
}
