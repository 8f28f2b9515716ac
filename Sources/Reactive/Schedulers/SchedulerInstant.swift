/// A point in the time of a ``TimeScheduler``: a `Duration` since the origin of its clock.
///
/// Instants are comparable only within one clock: those of a ``TestScheduler`` count from the
/// scheduler's virtual origin, those of a ``QueueScheduler`` from the system's uptime origin. Subtract two
/// instants for the `Duration` between them; add a `Duration` to move one.
///
/// ```swift
/// let start = scheduler.now
/// // ...
/// let elapsed = scheduler.now - start
/// ```
public struct SchedulerInstant: InstantProtocol, Sendable {
    /// The time elapsed from the clock's origin to this instant.
    public let sinceOrigin: Duration

    /// Creates the instant `sinceOrigin` after the clock's origin.
    ///
    /// - Parameter sinceOrigin: The time from the origin; it may be negative.
    @inlinable
    public init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// The origin of the clock: where a ``TestScheduler`` starts by default.
    public static let origin = SchedulerInstant(sinceOrigin: .zero)

    /// The instant `duration` after this one (before it, for a negative `duration`).
    ///
    /// - Parameter duration: The offset.
    /// - Returns: The moved instant.
    @inlinable
    public func advanced(by duration: Duration) -> SchedulerInstant {
        SchedulerInstant(sinceOrigin: sinceOrigin + duration)
    }

    /// The time from this instant to `other`; negative if `other` is earlier.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: `other - self`.
    @inlinable
    public func duration(to other: SchedulerInstant) -> Duration {
        other.sinceOrigin - sinceOrigin
    }

    /// Whether `lhs` is earlier than `rhs`.
    @inlinable
    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.sinceOrigin < rhs.sinceOrigin
    }

    /// The instant `rhs` after `lhs`.
    @inlinable
    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        lhs.advanced(by: rhs)
    }

    /// The instant `rhs` before `lhs`.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        lhs.advanced(by: .zero - rhs)
    }

    /// The time from `rhs` to `lhs`.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Moves `lhs` forward by `rhs`.
    @inlinable
    public static func += (lhs: inout SchedulerInstant, rhs: Duration) {
        lhs = lhs + rhs
    }
}

extension SchedulerInstant: CustomStringConvertible {
    /// The time since the origin, such as `1.5 seconds`.
    public var description: String {
        "\(sinceOrigin)"
    }
}
