import Foundation

/// `Tests/Fixtures/paging_server.py` running on a free port of 127.0.0.1, for one test.
///
/// Its standard input is a pipe that only this object holds: when the test ends (or crashes), the
/// pipe closes and the server stops by itself; ``stop()`` also terminates it at once.
final class FixtureServer {
    let port: Int
    private let process: Process
    private let input: Pipe
    private let output: TemporaryFile

    enum StartError: Error, CustomStringConvertible {
        case noPort(String)

        var description: String {
            switch self {
            case .noPort(let output): "the fixture server printed no port within 120 s; it printed: \(output)"
            }
        }
    }

    /// The fixture script, found from this source file's place in the repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/paging_server.py")
    }

    /// Starts the server with `arguments` (see the script's `--help`) and waits for its port.
    init(_ arguments: [String] = []) async throws {
        output = try TemporaryFile()
        input = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // It stops when the test closes its input; the lifetime is only a backstop, long enough for a suite
        // under a sanitizer on a loaded 2-core machine, where a started test may wait many minutes for a
        // thread before it sends its first request.
        process.arguments = ["python3", Self.script.path, "--exit-on-eof", "--quiet", "--lifetime", "3600"] + arguments
        process.standardInput = input
        process.standardOutput = output.handle
        process.standardError = output.handle
        try process.run()
        // Generous, and checked once more after the wait: under a sanitizer on a loaded 2-core machine,
        // blocking tests can keep this task from running for a long time after the port was printed.
        let deadline = ContinuousClock.now + .seconds(120)
        let readPort = { [output] () throws -> Int? in
            try output.contents().split(separator: "\n").lazy.compactMap { line in
                line.hasPrefix("PORT ") ? Int(line.dropFirst(5)) : nil
            }.first
        }
        var port = try readPort()
        while port == nil, ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
            port = try readPort()
        }
        if port == nil { port = try readPort() }
        guard let port else {
            let printed = (try? output.contents()) ?? ""
            process.terminate()
            throw StartError.noPort(printed)
        }
        self.port = port
    }

    /// The URL of `path` (with its query) on this server.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Terminates the server and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
