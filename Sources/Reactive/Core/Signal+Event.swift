extension Signal {
    /// One event of a signal: any number of values, then at most one terminal event.
    ///
    /// The grammar is `value* (failed | completed | interrupted)?`. A signal delivers nothing after
    /// its terminal event, whatever its senders do.
    public enum Event {
        /// A value. A signal may send any number of them before its terminal event.
        case value(Value)
        /// The work failed with `error`. Terminal.
        case failed(Error)
        /// The work finished successfully. Terminal.
        case completed
        /// The work was cancelled before it finished (a disposal, a released input). Terminal.
        case interrupted

        /// Whether this event ends the signal: `failed`, `completed` or `interrupted`.
        @inlinable
        public var isTerminating: Bool {
            if case .value = self { return false }
            return true
        }

        /// The value this event carries, if it is a `value` event.
        @inlinable
        public var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }

        /// The error this event carries, if it is a `failed` event.
        @inlinable
        public var error: Error? {
            if case .failed(let error) = self { return error }
            return nil
        }

        /// The same event with its value transformed by `transform`; terminal events pass unchanged.
        @inlinable
        public func map<NewValue>(_ transform: (Value) -> NewValue) -> Signal<NewValue, Error>.Event {
            switch self {
            case .value(let value): .value(transform(value))
            case .failed(let error): .failed(error)
            case .completed: .completed
            case .interrupted: .interrupted
            }
        }

        /// The same event with its error transformed by `transform`; other events pass unchanged.
        @inlinable
        public func mapError<NewError>(_ transform: (Error) -> NewError) -> Signal<Value, NewError>.Event {
            switch self {
            case .value(let value): .value(value)
            case .failed(let error): .failed(transform(error))
            case .completed: .completed
            case .interrupted: .interrupted
            }
        }
    }
}

extension Signal.Event: Sendable {}

extension Signal.Event: Equatable where Value: Equatable, Error: Equatable {}

extension Signal.Event: CustomStringConvertible {
    /// A short description such as `value(1)` or `failed(timeout)`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failed(let error): "failed(\(error))"
        case .completed: "completed"
        case .interrupted: "interrupted"
        }
    }
}
