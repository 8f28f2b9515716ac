import Foundation

/// The built `Demo` binary, run as a child process with a deadline.
struct DemoProcess {
    /// What a finished run printed and how it exited.
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
        let timedOut: Bool

        /// The lines of standard output, for `--print-ids`.
        var outputLines: [String] {
            standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    enum LaunchError: Error, CustomStringConvertible {
        case notFound([String])

        var description: String {
            switch self {
            case .notFound(let places):
                "the Demo binary is not built next to the tests; looked in: \(places.joined(separator: ", "))"
            }
        }
    }

    /// Where the build put `Demo`: beside the test binary (Linux) or the test bundle (macOS).
    static func binary() throws -> URL {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["STAPLER_DEMO_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("Demo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw LaunchError.notFound(directories.map(\.path))
    }

    /// Runs `Demo` with `arguments`; after `deadline` the process is killed and the result says so.
    static func run(_ arguments: [String], deadline: Duration = .seconds(120)) async throws -> Result {
        let output = try TemporaryFile()
        let errors = try TemporaryFile()
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output.handle
        process.standardError = errors.handle
        let timedOut = try await ChildProcess.runToEnd(process, deadline: deadline)
        return Result(
            status: process.terminationStatus, standardOutput: try output.contents(),
            standardError: try errors.contents(), timedOut: timedOut)
    }
}

/// Waiting for child processes without blocking a thread of the cooperative pool.
enum ChildProcess {
    /// Starts `process` and waits for it to exit; past `deadline` it is killed. Returns whether the
    /// deadline passed.
    static func runToEnd(_ process: Process, deadline: Duration) async throws -> Bool {
        let (exits, exited) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in
            exited.yield()
            exited.finish()
        }
        try process.run()
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: deadline)
            kill(pid, SIGKILL)
        }
        for await _ in exits {}
        watchdog.cancel()
        return (try? await watchdog.value) != nil
    }
}

/// A file under the temporary directory, removed when released.
final class TemporaryFile {
    let url: URL
    let handle: FileHandle

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stapler-demo-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
    }

    func contents() throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}
