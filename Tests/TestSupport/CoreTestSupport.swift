import Foundation

/// Deliberately unsynchronised state that observers mutate as a Thread Sanitizer probe.
///
/// TSan reports a race on it if and only if the accesses are not ordered by the system under test
/// (for example by a signal's serialised delivery). Never guard it in a test: that would make the
/// probe useless.
public final class Unsynchronized<Value>: @unchecked Sendable {
    // Guarded by nothing on purpose: the system under test must order every access.
    public var value: Value

    public init(_ value: Value) {
        self.value = value
    }
}

/// A flag that many threads set and read, for "after this returned" assertions.
public final class Flag: Sendable {
    private let state = Locked(false)

    public init() {}

    public var isSet: Bool { state.value }

    public func set() { state.value = true }
}

/// Whether the environment variable `name` is set to `1` (opt-in tests).
public func environmentFlag(_ name: String) -> Bool {
    ProcessInfo.processInfo.environment[name] == "1"
}
