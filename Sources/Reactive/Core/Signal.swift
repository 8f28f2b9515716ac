/// A hot stream of events that any number of observers receive as they happen.
///
/// A signal delivers `value* (failed | completed | interrupted)?` (see ``Event``) and guarantees:
/// - **Serialized delivery.** No two deliveries overlap, whatever threads send; each event reaches
///   every observer before the next event starts.
/// - **Reentrancy.** An observer may send into the same signal, observe it, dispose observations or
///   start producers while it is being notified. An event sent during a delivery (from the same
///   thread or another) is queued and delivered after the current one, in FIFO order, by the thread
///   that is delivering; `send` never blocks on an observer. The drain is iterative, so the stack does
///   not grow.
/// - **Disposal.** Once an observation's `dispose()` returns, no callout to that observer starts,
///   except the one a delivering thread had already committed to when the dispose came from another
///   thread (never more than one); a callout already running may finish. The observer's handler is
///   released on disposal and on the terminal event.
/// - **Order of attachment.** An observer receives exactly the events sent after its `observe` call.
/// - **Lifetime.** A signal whose input has been released, or whose output nobody holds and nobody
///   observes, tears itself down: it interrupts and releases its observers and resources.
///
/// ```swift
/// let (numbers, input) = Signal<Int, Never>.pipe()
/// numbers.observeValues { print($0) }
/// input.send(value: 1)  // prints 1
/// input.sendCompleted()
/// ```
public final class Signal<Value: Sendable, Error: Swift.Error>: Sendable {
    @usableFromInline let core: SignalCore<Value, Error>

    @inlinable
    init(core: SignalCore<Value, Error>) {
        self.core = core
    }

    /// Creates a signal and runs `generator` at once with its input observer and the lifetime of the
    /// signal, which ends when the signal terminates or tears down.
    ///
    /// Events the generator sends before it returns reach nobody: nobody can observe the signal yet.
    ///
    /// - Parameter generator: Sets up the work that feeds the signal. Keep the observer for as long as
    ///   events should flow: when it is released, the signal is interrupted.
    @inlinable
    public convenience init(_ generator: (_ input: Observer, _ lifetime: Lifetime) -> Void) {
        let core = SignalCore<Value, Error>()
        self.init(core: core)
        let input = Observer(input: core)
        generator(input, core.lifetime)
    }

    /// Creates a signal and its input observer.
    ///
    /// - Parameter disposable: Disposed when the signal terminates.
    /// - Returns: The signal to observe and the observer to send into it.
    @inlinable
    public static func pipe(disposable: (any Disposable)? = nil) -> (output: Signal, input: Observer) {
        let core = SignalCore<Value, Error>()
        core.lifetime.add(disposable)
        let input = Observer(input: core)
        return (Signal(core: core), input)
    }

    /// Starts delivering every later event to `observer`.
    ///
    /// If the signal has already terminated, `observer` receives its terminal event at once
    /// (`interrupted` for a signal that was torn down).
    ///
    /// - Returns: A disposable that stops the delivery. Once its `dispose()` returns, no callout to
    ///   `observer` starts, save the one a delivering thread on another thread had already committed to.
    /// - Complexity: O(1) amortised; disposing is O(observers).
    @inlinable
    @discardableResult
    public func observe(_ observer: Observer) -> any Disposable {
        core.observe(observer)
    }

    /// Starts delivering every later event to `action`; see `observe(_:)-(Observer)`.
    @inlinable
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event) -> Void) -> any Disposable {
        core.observe(Observer(action))
    }

    deinit {
        core.outputReleased()
    }
}

extension Signal {
    /// Calls `action` with every value; failures, completion and interruption are ignored.
    @inlinable
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        observe(Observer(value: action))
    }

    /// Calls `action` with the error if the signal fails.
    @inlinable
    @discardableResult
    public func observeFailed(_ action: @escaping @Sendable (Error) -> Void) -> any Disposable {
        observe(Observer(failed: action))
    }

    /// Calls `action` when the signal completes.
    @inlinable
    @discardableResult
    public func observeCompleted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        observe(Observer(completed: action))
    }

    /// Calls `action` when the signal is interrupted.
    @inlinable
    @discardableResult
    public func observeInterrupted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        observe(Observer(interrupted: action))
    }

    /// Calls `action` with each value as `.success` and with the error as `.failure`.
    @inlinable
    @discardableResult
    public func observeResult(_ action: @escaping @Sendable (Result<Value, Error>) -> Void) -> any Disposable {
        observe(Observer(value: { action(.success($0)) }, failed: { action(.failure($0)) }))
    }
}
