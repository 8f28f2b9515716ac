import Foundation
import Testing

/// The relaunch scene: a list saved to a file when the app is left, shown again at the next launch with
/// no request, then revalidated; in one run, and across two processes with `--save-to` and
/// `--restore-from`.
@Suite("Demo's relaunch from a saved list")
struct DemoRelaunchTests {
    /// A path under the temporary directory for a saved list, removed when released.
    final class SavedFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stapler-relaunch-\(UUID()).json")
        var path: String { url.path }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// The lines of `log` from the first line containing `marker` on.
    static func lines(of log: String, from marker: String) throws -> [String] {
        let lines = log.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.contains(marker) }, "missing: \(marker)")
        return Array(lines[start...])
    }

    /// Checks that the restored list was shown before any request, and that the first request is the
    /// revalidation's.
    static func expectShownWithNoRequest(_ log: String) throws {
        let lines = try lines(of: log, from: "── A relaunch, second launch")
        let restored = try #require(lines.firstIndex { $0.contains("demo       restored") })
        let firstRequest = try #require(lines.firstIndex { $0.contains("server     request") })
        let revalidation = try #require(lines.firstIndex { $0.contains("revalidates the restored list") })
        #expect(restored < revalidation && revalidation < firstRequest, "a request came before the revalidation")
        #expect(
            lines[restored + 1].hasSuffix("demo       requests                0 requests to show the restored list"))
    }

    @Test("P34: the default run saves the list as JSON, restores it with 0 requests, then revalidates it")
    func P34_relaunchInOneRun() async throws {
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let log = run.standardOutput
        for expected in [
            "── A relaunch, first launch: the user scrolls half-way down the long list, then leaves the app",
            "demo       saved                   40 products in 4 pages (ids 41…80, the row last shown 27), "
                + "with the keys of the 4 pages dropped above, to a temporary file",
            "demo       the app ends            the system ends the app",
            "demo       read                    2393 bytes of JSON from a temporary file",
            "demo       restored                Paginator(restoring:) shows 40 products at once, ids 41…80, "
                + "state data, 4 pages, total 120",
            "demo       requests                0 requests to show the restored list",
            "refresh(.around(index: 27, minimumCount: 20))",
            "relaunch 2   restored 40 products in 4 pages (ids 41…80, the row last shown 27) from 2393 bytes with "
                + "0 requests, revalidated around row 27; then scrolled to the top",
            "invariants   all held",
        ] {
            #expect(log.contains(expected), "missing: \(expected)")
        }
        try Self.expectShownWithNoRequest(log)
    }

    @Test("P34: --save-to writes the list; a second process with --restore-from shows it with 0 requests")
    func P34_relaunchAcrossProcesses() async throws {
        let file = SavedFile()
        let first = try await DemoProcess.run(["--speed", "0", "--save-to", file.path])
        #expect(first.status == 0, "\(first.standardOutput)")
        #expect(first.standardOutput.contains("with the keys of the 4 pages dropped above, to \(file.path)"))
        let data = try Data(contentsOf: file.url)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        #expect((json["pages"] as? [Any])?.count == 4)
        #expect((json["droppedAbove"] as? [Any])?.count == 4)

        let second = try await DemoProcess.run(["--speed", "0", "--restore-from", file.path])
        #expect(second.status == 0, "\(second.standardOutput)")
        let log = second.standardOutput
        #expect(!log.contains("── A long list with a memory bound"), "--restore-from plays the second launch alone")
        #expect(log.contains("demo       read                    \(data.count) bytes of JSON from \(file.path)"))
        #expect(log.contains("Paginator(restoring:) shows 40 products at once, ids 41…80, state data, 4 pages"))
        #expect(log.contains("invariants   all held"))
        try Self.expectShownWithNoRequest(log)
        let afterRestore = try Self.lines(of: log, from: "demo       requests")
        #expect(
            afterRestore.first { $0.contains("server     request") }?.hasSuffix("GET /products?offset=60&limit=10")
                == true)
    }

    @Test(
        "a saved list that does not restore is a typed error in the log, and the list opens afresh",
        arguments: [
            ("pages out of order", "pagesOutOfOrder(index: 1)"), ("a negative total", "invalidTotal(-5)"),
            ("another version", "unsupportedVersion(2)"), ("not JSON", "The given data was not valid JSON"),
            ("no file", "no saved list at"),
        ])
    func badSavedLists(damage: String, expected: String) async throws {
        let file = SavedFile()
        let saving = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0", "--save-to", file.path])
        #expect(saving.status == 0)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file.url)) as? [String: Any])
        switch damage {
        case "pages out of order": json["pages"] = (json["pages"] as? [Any]).map { Array($0.reversed()) }
        case "a negative total": json["total"] = -5
        case "another version": json["version"] = 2
        default: break
        }
        switch damage {
        case "not JSON": try Data("{ not json".utf8).write(to: file.url)
        case "no file": try FileManager.default.removeItem(at: file.url)
        default: try JSONSerialization.data(withJSONObject: json).write(to: file.url)
        }
        let run = try await DemoProcess.run(["--speed", "0", "--failure-rate", "0", "--restore-from", file.path])
        #expect(run.status == 0, "\(run.standardOutput)")
        let log = run.standardOutput
        let failure = try #require(log.split(separator: "\n").first { $0.contains("demo       restore failed") })
        #expect(failure.contains(expected), "\(failure)")
        #expect(failure.hasSuffix("the app opens the list afresh"))
        #expect(log.contains("nothing restored"))
        #expect(log.contains("invariants   all held"))
    }
}
