extension Signal {
    /// A signal that sends every event of this signal as a value, and then ends as this signal ended.
    ///
    /// A value `v` becomes `.value(.value(v))`. A terminal event is sent as a value and followed by
    /// `completed` (after `failed` or `completed`) or `interrupted` (after `interrupted`), so the result
    /// can never fail.
    ///
    /// - Returns: The signal of events.
    @inlinable
    public func materialize() -> Signal<Event, Never> {
        Signal<Event, Never> { output, lifetime in
            lifetime += observe { event in
                output.send(value: event)
                switch event {
                case .value: break
                case .failed, .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension Signal where Error == Never {
    /// A signal that sends the events this signal carries as values: the inverse of `materialize()`.
    ///
    /// The result ends at the first terminal event carried as a value, or when this signal ends.
    ///
    /// - Returns: The signal of the carried events.
    @inlinable
    public func dematerialize<Carried: Sendable, CarriedError: Swift.Error>() -> Signal<Carried, CarriedError>
    where Value == Signal<Carried, CarriedError>.Event {
        Signal<Carried, CarriedError> { output, lifetime in
            lifetime += observe { event in
                switch event {
                case .value(let carried): output.send(carried)
                case .completed: output.sendCompleted()
                case .interrupted: output.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs send every event of this producer's runs as a value; see
    /// `Signal.materialize()`.
    ///
    /// - Returns: The producer of events.
    @inlinable
    public func materialize() -> SignalProducer<Signal<Value, Error>.Event, Never> {
        lift { $0.materialize() }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose runs send the events this producer carries as values; see
    /// `Signal.dematerialize()`.
    ///
    /// - Returns: The producer of the carried events.
    @inlinable
    public func dematerialize<Carried: Sendable, CarriedError: Swift.Error>() -> SignalProducer<
        Carried, CarriedError
    > where Value == Signal<Carried, CarriedError>.Event {
        lift { $0.dematerialize() }
    }
}
