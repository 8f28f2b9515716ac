import Foundation
import Testing

/// The scene of the default run with a memory bound: a long list paged with `maxPages`, scrolled to its
/// end and back.
@Suite("Demo's long list with a memory bound")
struct DemoMemoryBoundTests {
    /// The lines of the scene, from its chapter to the next.
    static func scene(of log: String) throws -> [String] {
        let start = try #require(log.range(of: "── A long list with a memory bound"), "the scene did not play")
        let end = log.range(of: "── A relaunch", range: start.upperBound..<log.endIndex)?.lowerBound ?? log.endIndex
        return log[start.lowerBound..<end].split(separator: "\n").map(String.init)
    }

    /// The offsets of the requests among `lines`, in order.
    static func requestedOffsets(_ lines: some Sequence<String>) -> [Int] {
        lines.compactMap { line in
            guard line.contains("server     request"), let query = line.range(of: "offset=") else { return nil }
            return Int(line[query.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test("P29: going down, pages are dropped at the top; going up, each reloads with its key, once, in order")
    func P29_dropsAndReloads() async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            "── A long list with a memory bound: 120 products, pages of 10, maxPages 4, prefetchDistance 8",
            "paginator  items                   difference: 10 removed, 10 inserted, 0 moved, 0 updated; "
                + "removed ids 1…10; inserted ids 41…50",
            "demo       dropped                 1 page at the top, ids 1…10: the list keeps ids 11…50 (4 pages), "
                + "leadingCount -10",
            "demo       dropped                 1 page at the top, ids 71…80: the list keeps ids 81…120 (4 pages), "
                + "leadingCount -80",
            "then scrolls back up to the top of the list",
            "demo       dropped                 1 page at the bottom, ids 111…120: the list keeps ids 71…110 "
                + "(4 pages), leadingCount -70",
            "paginator  items                   difference: 10 removed, 10 inserted, 0 moved, 0 updated; "
                + "removed ids 41…50; inserted ids 1…10",
            "long list    120 products in 12 pages, maxPages 4: at most 4 pages held, 8 dropped at the top, "
                + "8 at the bottom",
            "long seen    every product once going down and once going up, in order",
            "long server  20 requests: 20 answered, 0 failed, 0 cancelled",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
        let lines = try Self.scene(of: log)
        let turn = try #require(lines.firstIndex { $0.contains("then scrolls back up") })
        #expect(Self.requestedOffsets(lines[..<turn]) == Array(stride(from: 0, through: 110, by: 10)))
        #expect(
            Self.requestedOffsets(lines[turn...]) == Array(stride(from: 70, through: 0, by: -10)),
            "each of the 8 pages dropped at the top reloads once, nearest first, with the offset it had")
        #expect(!lines.contains { $0.contains("INVARIANT BROKEN") })
    }

    @Test(
        "P29: under failures and other sizes, every product shows once each way and the bound holds",
        arguments: [
            ["--seed", "1"], ["--seed", "7", "--max-pages", "3"],
            ["--seed", "3", "--page-size", "7", "--long-items", "50"],
            ["--seed", "5", "--page-size", "3", "--max-pages", "7"],
            ["--seed", "9", "--page-size", "25", "--max-pages", "2"],
            ["--seed", "2", "--long-items", "5"], ["--seed", "4", "--long-items", "0"],
        ])
    func P29_variants(arguments: [String]) async throws {
        let run = try await DemoProcess.run(
            ["--speed", "0", "--failure-rate", "0.3", "--retries", "30"] + arguments)
        #expect(run.status == 0, "\(run.standardOutput)")
        let log = run.standardOutput
        #expect(log.contains("long seen    every product once going down and once going up, in order"))
        #expect(log.contains("invariants   all held"))
        #expect(!log.contains("INVARIANT BROKEN"))
    }

    @Test("--max-pages below a page and the rows kept on both sides of the row shown is a usage error")
    func tooSmallBound() async throws {
        let run = try await DemoProcess.run(["--max-pages", "2"])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains(
                "--max-pages 2 cannot keep a page of 10 and 8 rows on each side of the row shown: it needs at least 3"))
        let help = try await DemoProcess.run(["--help"])
        for flag in ["--long-items", "--max-pages", "--save-to", "--restore-from", "maxPages", "0 requests"] {
            #expect(help.standardOutput.contains(flag), "--help does not mention \(flag)")
        }
    }
}
