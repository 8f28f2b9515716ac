/// Something that runs actions: at once, on a queue, or in virtual time.
///
/// Operators such as `observe(on:)` and `start(on:)` take a scheduler to move work onto it. Every
/// scheduler of this module guarantees:
/// - **No overlap.** Two actions of one scheduler never run at the same time (for
///   ``ImmediateScheduler``, which runs each action on the calling thread, this holds per calling
///   thread only).
/// - **FIFO.** Actions run in the order they were scheduled (for a ``TimeScheduler``: among actions due
///   at the same instant).
/// - **Cancellation.** Disposing the returned disposable before the action starts means it never runs,
///   and the scheduler releases the action (and what it captured) at once or when it would have run.
///
/// ```swift
/// let scheduler = QueueScheduler(label: "org.example.work")
/// let pending = scheduler.schedule { print("on the queue") }
/// pending?.dispose()  // cancels it if it has not started
/// ```
public protocol Scheduler: Sendable {
    /// Runs `action` on this scheduler, as soon as it can.
    ///
    /// - Parameter action: The work. It runs at most once, never overlapping another action of this
    ///   scheduler.
    /// - Returns: A disposable that cancels the action if it has not started yet, or `nil` if the
    ///   action has already run (as ``ImmediateScheduler`` does).
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)?
}
