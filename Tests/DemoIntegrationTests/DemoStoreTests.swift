import Foundation
import Testing

/// `Demo --url URL --store FILE`: a mediator pages the API into SQLite; a later run with the server down
/// opens the list from the store.
@Suite("Demo --url with --store")
struct DemoStoreTests {
    static let itemCount = 60

    @Test(
        "rows inserted at the top while the first run pages down never print twice or go missing; offline, the store shows them"
    )
    func firstRunWalksThenOfflineRunOpensFromTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stapler-demo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("list.sqlite").path
        let server = try await FixtureServer([
            "--items", "\(Self.itemCount)", "--chaos", "11", "--fault-rate", "0.2", "--insert-rows", "3",
        ])
        let url = server.url(FixtureFormat.limitOffset.path)
        let first = try await DemoProcess.run(["--url", url, "--store", file, "--print-ids", "--page-size", "10"])
        server.stop()
        #expect(!first.timedOut)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.outputLines == (1...Self.itemCount).map(String.init))
        let offline = try await DemoProcess.run(["--url", url, "--store", file, "--print-ids", "--retries", "1"])
        #expect(!offline.timedOut)
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.outputLines == (1...Self.itemCount).map(String.init))
        #expect(offline.standardError.contains("failed"))
    }
}
