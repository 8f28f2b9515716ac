#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in wall-clock time, in milliseconds since 1970-01-01 00:00 UTC.
///
/// Stores record a collection's last refresh with it; a persisted time may be later than "now" when the
/// device's clock was set back.
public struct WallTime: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01 00:00 UTC.
    public var millisecondsSince1970: Int64

    /// The time `millisecondsSince1970` milliseconds after 1970-01-01 00:00 UTC.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Whether `left` is earlier than `right`.
    public static func < (left: WallTime, right: WallTime) -> Bool {
        left.millisecondsSince1970 < right.millisecondsSince1970
    }
}

/// The wall clock a store stamps refreshes with: inject a fixed or hand-driven one in tests.
public protocol WallClock: Sendable {
    /// The current wall time.
    func now() -> WallTime
}

/// The system's real-time clock (`CLOCK_REALTIME`).
public struct SystemWallClock: WallClock {
    /// The system clock.
    public init() {}

    /// The current time of the system's real-time clock.
    public func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(millisecondsSince1970: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
