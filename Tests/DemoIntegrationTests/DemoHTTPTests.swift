import Foundation
import Testing

/// The four wire formats, each with the page size in the URL's own parameter.
enum FixtureFormat: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case limitOffset = "limit-offset"
    case pageNumber = "page-number"
    case cursor
    case linkHeader = "link-header"

    var path: String {
        switch self {
        case .limitOffset: "/limit-offset/items?limit=10"
        case .pageNumber: "/page-number/items?page_size=10"
        case .cursor: "/cursor/items?page_size=10"
        case .linkHeader: "/link-header/items?per_page=10"
        }
    }

    /// A URL of a page in the middle of the 47 items (a cursor's page starts off the page grid: the
    /// page above it is a short one), and the id the first response starts at.
    var middlePath: (path: String, firstID: Int) {
        switch self {
        case .limitOffset: ("/limit-offset/items?limit=10&offset=25", 26)
        // "p=15", the fixture's cursor of the rows from the sixteenth on.
        case .cursor: ("/cursor/items?page_size=10&cursor=cD0xNQ", 16)
        case .pageNumber: ("/page-number/items?page=3&page_size=10", 21)
        case .linkHeader: ("/link-header/items?page=3&per_page=10", 21)
        }
    }

    var testDescription: String { rawValue }
}

/// `Demo --url` against a real local HTTP server that injects faults: a 500 and a 503 on the first
/// page, a malformed body on the second, a response slower than the time-out on the third (or, with
/// `--hang`, no response at all), two 502s in a row on the fourth.
///
/// The paginator's policy gets through them: its `loadTimeout` (`--timeout`) ends the slow request and
/// its `AutoRetry` (`--retries` as `maxRetries`) asks again after every failure; nobody presses retry.
@Suite("Demo --url against the fixture server")
struct DemoHTTPTests {
    static let itemCount = 47
    /// The client's time-out, and the slow response's delay well beyond it.
    static let timeout = ["--timeout", "2"]
    static let slow = ["--slow", "6"]

    @Test("every item arrives exactly once, in order, through every injected fault", arguments: FixtureFormat.allCases)
    func pagesThroughFaults(format: FixtureFormat) async throws {
        let server = try await FixtureServer(["--items", "\(Self.itemCount)"] + Self.slow)
        defer { server.stop() }
        let run = try await DemoProcess.run(
            ["--url", server.url(format.path), "--print-ids", "--retries", "8"] + Self.timeout)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines == (1...Self.itemCount).map(String.init))
        // The log (on standard error with --print-ids) shows that each fault happened and was retried.
        let log = run.standardError
        #expect(log.contains("format                  \(format.rawValue):"))
        #expect(log.contains("refreshing → errorRefreshing(source error: HTTP 503 Service Unavailable)"))
        #expect(log.contains("errorsAfterFirstPage    source error: malformed body"))
        #expect(log.contains("errorsAfterFirstPage    the load timed out"))
        #expect(log.contains("errorsAfterFirstPage    source error: HTTP 502 Bad Gateway"))
        #expect(log.contains("policy       loadTimeout 2000 ms: 1 time-out;"))
        #expect(!log.contains("retry()"))
        #expect(log.contains("invariants   all held"))
    }

    @Test(
        "a request that hangs longer than --timeout: the loadTimeout fails it, AutoRetry asks again, every id once, in order",
        arguments: FixtureFormat.allCases)
    func hangingRequest(format: FixtureFormat) async throws {
        // The hang (900 s, the server's longest) is far beyond --timeout (5 s, generous for a sanitizer build
        // on a busy machine): a run that waited for it would take over 900 s. One that did not wait takes
        // seconds alone, and over two minutes under Thread Sanitizer on a loaded 2-core machine (CI runs three
        // passes of the suite at once).
        let server = try await FixtureServer(["--items", "\(Self.itemCount)", "--hang", "900"])
        defer { server.stop() }
        let start = ContinuousClock.now
        let run = try await DemoProcess.run(
            ["--url", server.url(format.path), "--print-ids", "--retries", "8", "--timeout", "5"],
            deadline: .seconds(890))
        let took = ContinuousClock.now - start
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines == (1...Self.itemCount).map(String.init))
        #expect(took < .seconds(850), "the run waited for the hanging request: \(took)")
        let log = run.standardError
        #expect(log.contains("loadingMore → errorLoadingMore(the load timed out)"))
        #expect(log.contains("loadStates              append loading → failed(the load timed out)"))
        #expect(log.contains("stopReason              nil → failed(the load timed out)"))
        #expect(log.contains("stopReason              failed(the load timed out) → nil"))
        #expect(log.contains("user       waits                   the policy retries by itself"))
        #expect(log.contains("policy       loadTimeout 5000 ms:"))
        #expect(!log.contains("retry()"))
        #expect(log.contains("invariants   all held"))
    }

    @Test(
        "a URL of a page in the middle loads that page, pages up to the top and down to the bottom: every item once, in order",
        arguments: FixtureFormat.allCases)
    func opensInTheMiddle(format: FixtureFormat) async throws {
        let server = try await FixtureServer(["--items", "\(Self.itemCount)"] + Self.slow)
        defer { server.stop() }
        let (path, firstID) = format.middlePath
        let run = try await DemoProcess.run(
            ["--url", server.url(path), "--print-ids", "--retries", "8"] + Self.timeout)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines == (1...Self.itemCount).map(String.init))
        let log = run.standardError
        // The first page applied is the middle one; the pages above it arrive as insertions at the top.
        let firstPage = try #require(log.split(separator: "\n").first { $0.contains("items                   ") })
        #expect(firstPage.contains("reloaded 0..<") && firstPage.contains("ids \(firstID)…"), "\(firstPage)")
        #expect(log.contains("loadPreviousPage()      scrolls up to row 0"))
        #expect(log.contains("items                   inserted 0..<"))
        #expect(log.contains("loadStates              prepend loading → idle(end)"))
        #expect(log.contains("the top and the end reached"))
        #expect(log.contains("invariants   all held"))
    }

    @Test(
        "a format with no previous link pages one way: from the page the URL names down to the bottom",
        arguments: [FixtureFormat.cursor, .linkHeader])
    func oneWayFromTheMiddle(format: FixtureFormat) async throws {
        let server = try await FixtureServer(["--items", "\(Self.itemCount)", "--no-faults", "--no-previous"])
        defer { server.stop() }
        let (path, firstID) = format.middlePath
        let run = try await DemoProcess.run(["--url", server.url(path), "--print-ids"] + Self.timeout)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines == (firstID...Self.itemCount).map(String.init))
        #expect(!run.standardError.contains("loadPreviousPage()"))
        #expect(run.standardError.contains("loadStates              refresh loading → idle; prepend idle → idle(end)"))
    }

    @Test("--format forces the format and the page size comes from --page-size")
    func forcedFormat() async throws {
        let server = try await FixtureServer(["--items", "23", "--no-faults"])
        defer { server.stop() }
        let run = try await DemoProcess.run(
            ["--url", server.url("/page-number/items"), "--format", "page-number", "--page-size", "4", "--print-ids"]
                + Self.timeout)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines == (1...23).map(String.init))
        #expect(run.standardError.contains("page size               4, sent as ?page_size="))
        #expect(run.standardError.contains("pages                   5 → 6"))
    }

    @Test("a wrong format is a logged error on every page, never a crash, and the run gives up")
    func wrongFormat() async throws {
        let server = try await FixtureServer(["--no-faults"])
        defer { server.stop() }
        let run = try await DemoProcess.run(
            ["--url", server.url("/limit-offset/items"), "--format", "link-header", "--retries", "2", "--print-ids"]
                + Self.timeout)
        #expect(run.status == 3)
        #expect(run.outputLines.isEmpty)
        #expect(run.standardError.contains("malformed body: expected Array"))
        #expect(run.standardError.contains("gives up"))
    }

    @Test("an unreachable server is a transport error, retried, then given up")
    func unreachable() async throws {
        // A port that was free a moment ago: bind one, close it, and use it.
        let port = try await { () async throws -> Int in
            let server = try await FixtureServer(["--no-faults"])
            server.stop()
            return server.port
        }()
        let run = try await DemoProcess.run(
            ["--url", "http://127.0.0.1:\(port)/items", "--retries", "1"] + Self.timeout)
        #expect(run.status == 3)
        #expect(run.standardOutput.contains("transport error"))
    }
}
