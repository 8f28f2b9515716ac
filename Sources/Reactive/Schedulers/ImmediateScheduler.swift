/// A scheduler that runs every action at once, on the calling thread, before `schedule` returns.
///
/// Use it where an API asks for a scheduler but no hop is wanted: `observe(on: .immediate)` delivers
/// exactly as the signal does. It offers no delayed or repeating scheduling (it is not a
/// ``TimeScheduler``): waiting on the calling thread would block it.
///
/// Actions scheduled from different threads run on those threads and may overlap; actions scheduled
/// from one thread run in order. An action that schedules another runs it at once, nested.
public struct ImmediateScheduler: Scheduler {
    /// Creates the scheduler; every instance behaves the same.
    @inlinable
    public init() {}

    /// Runs `action` at once on the calling thread.
    ///
    /// - Parameter action: The work.
    /// - Returns: `nil`: the action has already run, there is nothing left to cancel.
    @inlinable
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }
}

extension Scheduler where Self == ImmediateScheduler {
    /// A scheduler that runs every action at once on the calling thread.
    @inlinable
    public static var immediate: ImmediateScheduler { ImmediateScheduler() }
}
