import Foundation
import Reactive

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an HTTP page could not be loaded: the `Failure` type of every HTTP page source.
enum HTTPFailure: Error, CustomStringConvertible {
    /// The server answered with an error status.
    case status(Int)
    /// No answer came within the time-out.
    case timedOut(Duration)
    /// The body is not what the wire format says.
    case malformed(String)
    /// The request failed below HTTP (connection refused, DNS, TLS...).
    case transport(String)
    /// The load was superseded.
    case cancelled

    var description: String {
        switch self {
        case .status(let code): "HTTP \(code) \(HTTPClient.reason(for: code))"
        case .timedOut(let timeout): "timed out after \(Log.milliseconds(timeout))"
        case .malformed(let reason): "malformed body: \(reason)"
        case .transport(let reason): "transport error: \(reason)"
        case .cancelled: "cancelled"
        }
    }
}

/// A successful response: the body, the headers, and the URL it came from.
struct HTTPResponse: Sendable {
    let url: URL
    let body: Data
    let headers: [String: String]

    /// The value of header `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// `GET` through `URLSession` with a time-out, a log line per request and per answer, and every
/// failure turned into an ``HTTPFailure`` (never a crash).
///
/// The client's own time-out is a backstop: the paginator's `loadTimeout` ends a page's request
/// first (it disposes it, which cancels the URLSession task). A request made before any paginator
/// exists passes its own, shorter `timeout` to ``get(_:timeout:)``.
final class HTTPClient: Sendable {
    /// Counts for the summary.
    struct Statistics: Sendable {
        var requests = 0
        var failures: [String: Int] = [:]
    }

    private let session: URLSession
    private let timeout: Duration
    private let log: Log
    // Guarded by its own lock.
    private let statistics = LockedState(Statistics())

    /// Creates a client whose requests time out after `timeout` unless a request says otherwise.
    init(timeout: Duration, log: Log) {
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout / .milliseconds(1)) / 1000
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds * 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        self.timeout = timeout
        self.log = log
    }

    /// What was requested and what failed, so far.
    var counts: Statistics {
        statistics.withLock { $0 }
    }

    /// Loads `url` within `timeout` (the client's when `nil`); a status outside 200..<300 is a failure.
    func get(_ url: URL, timeout: Duration? = nil) async throws(HTTPFailure) -> HTTPResponse {
        let timeout = timeout ?? self.timeout
        statistics.withLock { $0.requests += 1 }
        var request = URLRequest(url: url)
        request.timeoutInterval = Double(timeout / .milliseconds(1)) / 1000
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        log.write(.http, "GET", Self.shortName(of: url))
        let start = ContinuousClock.now
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw fail(Self.failure(for: error, timeout: timeout), after: ContinuousClock.now - start)
        }
        let took = ContinuousClock.now - start
        guard let http = response as? HTTPURLResponse else {
            throw fail(.transport("not an HTTP response"), after: took)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw fail(.status(http.statusCode), after: took, body: data)
        }
        log.write(
            .http, "response",
            "\(http.statusCode) \(Self.reason(for: http.statusCode)) in \(Log.milliseconds(took)), \(data.count) bytes")
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers[name] = value
        }
        return HTTPResponse(url: http.url ?? url, body: data, headers: headers)
    }

    /// Runs a wire format's decoder (``PageDecoding``), logging and counting the failure it throws.
    func decoded<Page>(_ decode: () throws(HTTPFailure) -> Page) throws(HTTPFailure) -> Page {
        do {
            return try decode()
        } catch {
            throw fail(error, after: nil)
        }
    }

    /// Records and logs `failure`, then returns it to throw.
    func fail(_ failure: HTTPFailure, after took: Duration?, body: Data? = nil) -> HTTPFailure {
        let kind: String
        switch failure {
        case .status(let code): kind = "HTTP \(code)"
        case .timedOut: kind = "time-out"
        case .malformed: kind = "malformed body"
        case .transport: kind = "transport"
        case .cancelled: kind = "cancelled"
        }
        statistics.withLock { $0.failures[kind, default: 0] += 1 }
        switch failure {
        case .status(let code):
            var detail = "\(code) \(Self.reason(for: code))" + (took.map { " in \(Log.milliseconds($0))" } ?? "")
            if let body, !body.isEmpty {
                detail +=
                    ": " + String(decoding: body.prefix(100), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            }
            log.write(.http, "response", detail)
        case .timedOut, .malformed:
            log.write(.http, "failed", "\(failure)")
        default:
            log.write(.http, "failed", "\(failure)" + (took.map { " after \(Log.milliseconds($0))" } ?? ""))
        }
        return failure
    }

    /// The path and query of `url`, for the log.
    static func shortName(of url: URL) -> String {
        var text = url.path.isEmpty ? "/" : url.path
        if let query = url.query { text += "?" + query }
        return text
    }

    private static func failure(for error: any Error, timeout: Duration) -> HTTPFailure {
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return .timedOut(timeout)
            case .cancelled: return .cancelled
            default: return .transport(error.localizedDescription)
            }
        }
        return .transport("\(error)")
    }

    /// The reason phrase of a status code.
    static func reason(for code: Int) -> String {
        switch code {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: (200..<300).contains(code) ? "Success" : "Error"
        }
    }
}
