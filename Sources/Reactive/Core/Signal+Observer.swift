extension Signal {
    /// Receives the events of a signal; also the input handle of a signal made by `Signal.pipe()`.
    ///
    /// Sending through an observer is thread safe. The input observer of a signal interrupts the
    /// signal when it is released, so a signal whose input nobody holds cannot stay open forever.
    public final class Observer: Sendable {
        @usableFromInline let action: @Sendable (Event) -> Void
        /// The closure of an observer of values only (`observesValuesOnly`), a no-op for any other.
        ///
        /// It is called with each value in place of `action`, which is then a no-op: observing values costs
        /// no closure that unwraps events. It is not optional: calling a closure out of an optional would
        /// retain and release its context on every event.
        @usableFromInline let valueAction: @Sendable (Value) -> Void
        @usableFromInline let observesValuesOnly: Bool
        /// For the input of a signal (`Signal.pipe()`, a producer's run): that signal's core, which the
        /// input interrupts when it is released, unless the signal has already terminated.
        @usableFromInline let interruptedOnDeinit: SignalCoreBase?

        /// Creates an observer that runs `action` for every event it is sent.
        ///
        /// - Parameter action: Called on the sending thread, one event at a time for a given signal.
        @inlinable
        public init(_ action: @escaping @Sendable (Event) -> Void) {
            self.action = action
            self.valueAction = { _ in }
            self.observesValuesOnly = false
            self.interruptedOnDeinit = nil
        }

        /// The input of the signal of `core`: it sends its events to `core`, and interrupts it when
        /// released.
        @inlinable
        init(input core: SignalCore<Value, Error>) {
            self.action = { [core] event in core.send(event) }
            self.valueAction = { _ in }
            self.observesValuesOnly = false
            self.interruptedOnDeinit = core
        }

        /// An observer that calls `valueAction` with every value and ignores the other events.
        @inlinable
        init(values valueAction: @escaping @Sendable (Value) -> Void) {
            self.action = { _ in }
            self.valueAction = valueAction
            self.observesValuesOnly = true
            self.interruptedOnDeinit = nil
        }

        /// Creates an observer from one closure per kind of event; omitted closures ignore theirs.
        @inlinable
        public convenience init(
            value: (@Sendable (Value) -> Void)? = nil,
            failed: (@Sendable (Error) -> Void)? = nil,
            completed: (@Sendable () -> Void)? = nil,
            interrupted: (@Sendable () -> Void)? = nil
        ) {
            if let value, failed == nil, completed == nil, interrupted == nil {
                // One allocation fewer than a dispatching closure, and no event to unwrap.
                self.init(values: value)
                return
            }
            let dispatch: @Sendable (Event) -> Void = { event in
                switch event {
                case .value(let element): value?(element)
                case .failed(let error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
            }
            self.init(dispatch)
        }

        /// Sends `event`.
        @inlinable
        public func send(_ event: Event) {
            if observesValuesOnly {
                if case .value(let value) = event { valueAction(value) }
            } else {
                action(event)
            }
        }

        /// Sends a value.
        @inlinable
        public func send(value: Value) {
            if observesValuesOnly {
                valueAction(value)
            } else {
                action(.value(value))
            }
        }

        /// Sends a failure, which terminates the signal.
        @inlinable
        public func send(error: Error) {
            action(.failed(error))
        }

        /// Completes the signal.
        @inlinable
        public func sendCompleted() {
            action(.completed)
        }

        /// Interrupts the signal.
        @inlinable
        public func sendInterrupted() {
            action(.interrupted)
        }

        /// Sends `interrupted`; a function of its own so that the `deinit` of an observer that does not
        /// interrupt never looks up the generic metadata of `Event` (a deinit is never specialised).
        @inline(never)
        @usableFromInline
        func interruptOnDeinit() {
            action(.interrupted)
        }

        deinit {
            // A deinit runs unspecialised: making the `interrupted` event there looks up the generic type of
            // `Event` at run time, so a signal that has terminated (a run that completed) is not sent one.
            if let interruptedOnDeinit, !interruptedOnDeinit.hasTerminated {
                interruptOnDeinit()
            }
        }
    }
}
