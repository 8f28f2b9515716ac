import Foundation
import Testing

/// `Demo --url --dedup` against a fixture server that inserts rows at the top of the list while the
/// client pages down (`--insert-rows`, the soak's fault): the pages after an insertion repeat rows the
/// list already has, and deduplication must drop them. The soak (`scripts/soak.sh`) runs the same server
/// with random failures on top, for minutes.
@Suite("Demo --url with rows inserted at the top while paging")
struct DemoInsertedRowsTests {
    static let itemCount = 60

    /// The server: every request that goes further down inserts 1 to 3 rows at the top; no other fault.
    static func server() async throws -> FixtureServer {
        try await FixtureServer(["--items", "\(itemCount)", "--chaos", "11", "--fault-rate", "0", "--insert-rows", "3"])
    }

    @Test(
        "with --dedup, the rows a page repeats after an insertion above are dropped: every id once, in order",
        arguments: FixtureFormat.allCases)
    func deduplicatesRepeatedRows(format: FixtureFormat) async throws {
        for path in [format.path, format.middlePath.path] {
            let server = try await Self.server()
            defer { server.stop() }
            let run = try await DemoProcess.run(
                ["--url", server.url(path), "--format", format.rawValue, "--print-ids", "--dedup"])
            #expect(!run.timedOut)
            #expect(run.status == 0, "\(path): \(run.standardError)")
            #expect(run.outputLines == (1...Self.itemCount).map(String.init), "\(path)")
            #expect(run.standardError.contains("invariants   all held"), "\(path)")
        }
    }

    @Test(
        "with --max-pages 4 and --edit-rows, pages dropped going up reload going down: the walk sees every id once, in order",
        arguments: FixtureFormat.allCases)
    func boundedAndEditedWalk(format: FixtureFormat) async throws {
        for path in [format.path, format.middlePath.path] {
            let server = try await Self.server()
            defer { server.stop() }
            let run = try await DemoProcess.run([
                "--url", server.url(path), "--format", format.rawValue, "--print-ids", "--dedup", "--max-pages", "4",
                "--edit-rows",
            ])
            #expect(!run.timedOut)
            #expect(run.status == 0, "\(path): \(run.standardError)")
            #expect(run.outputLines == (1...Self.itemCount).map(String.init), "\(path)")
            #expect(run.standardError.contains("edits"), "\(path): the rows were edited while pages loaded")
            #expect(run.standardError.contains("invariants   all held"), "\(path)")
        }
    }

    @Test("without --dedup the repeated rows reach the list, and the Demo's invariant checker reports them")
    func withoutDeduplicationTheRepeatsShow() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let run = try await DemoProcess.run(
            ["--url", server.url(FixtureFormat.limitOffset.path), "--format", "limit-offset", "--print-ids"])
        #expect(!run.timedOut)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("INVARIANT BROKEN        duplicate item"))
        #expect(Set(run.outputLines).count < run.outputLines.count)
    }
}
