import Foundation
import Reactive

/// Who a log line is about: the columns a reader scans first.
enum LogSource: String {
    case user
    case server
    case http
    case paginator
    case check
    case demo
}

/// The demo's log: one line per event, a relative timestamp first, in aligned columns.
///
/// ```
///    time  source     event                   detail
///  0.131s  paginator  state                   refreshing → data
/// ```
///
/// Lines may come from any thread; each is written whole, in the order the writers take the lock.
final class Log: Sendable {
    /// Where the lines go.
    enum Destination {
        case standardOutput
        case standardError
        /// Nowhere (for tests).
        case discard
        /// Appended to `writes`, one element a write, without its final newline (for tests).
        case memory(LockedState<[String]>)
    }

    private let destination: Destination
    private let elapsed: @Sendable () -> Duration
    // Guarded by its own lock: serialises writes so lines never interleave.
    private let lock = LockedState(())

    static let sourceWidth = 9
    static let eventWidth = 22

    /// Creates a log whose timestamps are what `elapsed` returns at each line.
    init(to destination: Destination, elapsed: @escaping @Sendable () -> Duration) {
        self.destination = destination
        self.elapsed = elapsed
    }

    /// A log timed by the wall clock from now.
    static func realTime(to destination: Destination) -> Log {
        let start = ContinuousClock.now
        return Log(to: destination) { ContinuousClock.now - start }
    }

    /// Writes the column headings.
    func heading() {
        emit(columns(time: "time", source: "source", event: "event", detail: "detail"))
    }

    /// Writes one event.
    func write(_ source: LogSource, _ event: String, _ detail: String = "") {
        emit(columns(time: Self.format(elapsed()), source: source.rawValue, event: event, detail: detail))
    }

    /// Writes a chapter title of the story, after a blank line.
    func chapter(_ title: String) {
        emit("\n── \(title)")
    }

    /// Writes `text` as it is.
    func plain(_ text: String) {
        emit(text)
    }

    private func columns(time: String, source: String, event: String, detail: String) -> String {
        let line =
            Self.padded(time, to: 8, alignRight: true) + "  " + Self.padded(source, to: Self.sourceWidth) + "  "
            + Self.padded(event, to: Self.eventWidth) + "  " + detail
        return String(line.reversed().drop(while: { $0 == " " }).reversed())
    }

    private func emit(_ text: String) {
        let data = Data((text + "\n").utf8)
        lock.withLock { _ in
            switch destination {
            case .standardOutput: FileHandle.standardOutput.write(data)
            case .standardError: FileHandle.standardError.write(data)
            case .discard: break
            case .memory(let writes): writes.withLock { $0.append(text) }
            }
        }
    }

    /// `duration` as seconds with milliseconds, like `12.034s`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = max(0, Int((duration / .milliseconds(1)).rounded()))
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    }

    /// `duration` in whole milliseconds, like `118 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        "\(Int((duration / .milliseconds(1)).rounded())) ms"
    }

    private static func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        guard text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return alignRight ? padding + text : text + padding
    }
}

/// `count` with the singular or plural noun, as `1 retry` or `3 retries`.
func plural(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) \(count == 1 ? singular : plural)"
}
