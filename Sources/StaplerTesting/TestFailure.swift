/// A failure a fake source injects: which requests fail, and how many times.
///
/// ```swift
/// TestPageSource(items, failures: [.atOffset(20, times: 2)])   // fails twice, then succeeds
/// TestPageSource(items, failures: [.atRequest(3)])             // the third request fails once
/// TestPageSource(items, failures: [.atKey("c40", times: nil)]) // fails every time
/// ```
///
/// A failed request is answered with ``TestSourceError/injected(key:request:)``, delivered the way the
/// source delivers its pages (on the next turn by default), and counts as one of `times`.
public struct TestFailure: Sendable, Hashable {
    /// Which requests a failure matches.
    public enum Trigger: Sendable, Hashable {
        /// The requests for the key of this description (`"20"` for an offset, `"3"` for page 3, `"c40"`
        /// for a cursor).
        case key(String)
        /// The requests whose first item is at this offset of the list, whatever the page model.
        case offset(Int)
        /// The n-th request the source receives, counting from 1.
        case request(Int)
    }

    /// Which requests fail.
    public let trigger: Trigger
    /// How many matching requests fail before the next one succeeds; `nil` fails every one.
    public let times: Int?

    /// Creates a failure of the requests `trigger` matches, `times` times (`nil`: always).
    ///
    /// - Parameters:
    ///   - trigger: Which requests fail.
    ///   - times: How many matching requests fail; at least 1 (a programmer error traps, naming `times`),
    ///     or `nil` for every one.
    public init(_ trigger: Trigger, times: Int? = 1) {
        if let times {
            guard times >= 1 else { fatalError("TestFailure: times must be at least 1 or nil, got \(times)") }
        }
        self.trigger = trigger
        self.times = times
    }

    /// Fails the requests for the key described by `key`, `times` times (`nil`: always).
    ///
    /// - Parameters:
    ///   - key: The key's description, as the request log shows it.
    ///   - times: How many requests fail, or `nil` for all.
    /// - Returns: The failure.
    public static func atKey(_ key: String, times: Int? = 1) -> TestFailure { TestFailure(.key(key), times: times) }

    /// Fails the requests whose page starts at item `offset`, `times` times (`nil`: always).
    ///
    /// - Parameters:
    ///   - offset: The offset of the page's first item in the list.
    ///   - times: How many requests fail, or `nil` for all.
    /// - Returns: The failure.
    public static func atOffset(_ offset: Int, times: Int? = 1) -> TestFailure {
        TestFailure(.offset(offset), times: times)
    }

    /// Fails the `index`-th request (counting from 1) and, with `times` above 1, the matching ones after it.
    ///
    /// - Parameters:
    ///   - index: The position of the request in the log, from 1.
    ///   - times: How many requests from that one on fail, or `nil` for all.
    /// - Returns: The failure.
    public static func atRequest(_ index: Int, times: Int? = 1) -> TestFailure {
        TestFailure(.request(index), times: times)
    }

    /// Whether the request at `index` (from 1) for the key described by `key`, starting at item `offset`,
    /// matches the trigger.
    func matches(index: Int, key: String, offset: Int) -> Bool {
        switch trigger {
        case .key(let described): described == key
        case .offset(let start): start == offset
        case .request(let first): index >= first
        }
    }
}
