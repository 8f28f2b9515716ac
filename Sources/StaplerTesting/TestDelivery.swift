import Dispatch
import Reactive

/// When a fake source answers a request: at once, on a later turn, or when the test says so.
///
/// The default, ``nextTurn``, is how real servers answer and the path apps get wrong: the page arrives
/// after the call that asked for it has returned.
public struct TestDelivery: Sendable {
    /// How the answer is scheduled.
    enum Mode: Sendable {
        case synchronous
        case nextTurn((any Scheduler)?)
        case latency(Duration, any TimeScheduler)
        case manual
    }

    let mode: Mode

    /// Answers inside the call that starts the load, before it returns.
    public static let synchronous = TestDelivery(mode: .synchronous)
    /// Answers on a later turn of a Dispatch global queue.
    public static let nextTurn = TestDelivery(mode: .nextTurn(nil))
    /// Parks every request in ``TestPageSource/pendingRequests`` until the test answers or fails it.
    public static let manual = TestDelivery(mode: .manual)

    /// Answers on a later turn of `scheduler`: a `TestScheduler` answers when the test advances it.
    ///
    /// - Parameter scheduler: Where the answers run.
    /// - Returns: The delivery.
    public static func nextTurn(on scheduler: any Scheduler) -> TestDelivery {
        TestDelivery(mode: .nextTurn(scheduler))
    }

    /// Answers `latency` after the request, on `scheduler`: a `TestScheduler` answers when the test
    /// advances it by that much.
    ///
    /// - Parameters:
    ///   - latency: How long the server takes; not negative (a programmer error traps, naming `latency`).
    ///   - scheduler: Where the answers run, and whose clock measures the latency.
    /// - Returns: The delivery.
    public static func after(_ latency: Duration, on scheduler: any TimeScheduler) -> TestDelivery {
        guard latency >= .zero else { fatalError("TestDelivery: latency must not be negative, got \(latency)") }
        return TestDelivery(mode: .latency(latency, scheduler))
    }

    /// Runs `answer` as this delivery says, and returns what cancels it if it has not run yet.
    ///
    /// `.manual` runs nothing: the source parks those requests until the test answers them.
    func schedule(_ answer: @escaping @Sendable () -> Void) -> (any Disposable)? {
        switch mode {
        case .synchronous:
            answer()
            return nil
        case .manual:
            return nil
        case .nextTurn(let scheduler?):
            return scheduler.schedule(answer)
        case .nextTurn(nil):
            let cancelled = AnyDisposable()
            DispatchQueue.global().async {
                if !cancelled.isDisposed { answer() }
            }
            return cancelled
        case .latency(let latency, let scheduler):
            return scheduler.schedule(after: latency, action: answer)
        }
    }
}
