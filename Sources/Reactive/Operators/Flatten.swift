/// How `flatten(_:)` and `flatMap(_:_:)` run the inner producers that an outer signal or producer sends.
///
/// With every strategy, a failure or an interruption of the outer stream or of an inner run ends the
/// result at once with that event, and the result's end (or its disposal) interrupts the outer stream
/// and every inner run.
public enum FlattenStrategy: Sendable, Hashable {
    /// Starts every inner producer as soon as it arrives and forwards values as they come. The result
    /// completes once the outer stream and every inner run have completed.
    case merge
    /// Runs the inner producers one after another, in the order they arrived: each starts when the one
    /// before it completes. The result completes once the outer stream has completed and the last inner
    /// run has completed.
    case concat
    /// Runs only the latest inner producer: starting a new one first disposes the run of the previous one,
    /// whose later events never reach the result. The result completes once the outer stream and the
    /// latest inner run have completed.
    case latest
    /// Runs at most `limit` inner producers at once; the others wait in arrival order. `merge` and
    /// `concat` are this strategy without a limit and with a limit of 1.
    case concurrent(limit: Int)
}

extension Signal {
    /// A signal of the values of the inner producers this signal sends, run according to `strategy`.
    ///
    /// The outer signal's events are handled on the thread that delivers them, and inner runs start on
    /// that thread, with two exceptions under `merge`, `concat` and `concurrent(limit:)`: a run that
    /// finishes on another thread and lets a queued producer start, starts it there; and a producer that
    /// arrives while another thread is starting inner runs is started by that thread, in order (as a
    /// signal's delivery is drained). Inner runs that start and finish at once are started in a loop, not
    /// recursively, so a long queue of synchronous producers does not grow the stack. Unlike ReactiveSwift,
    /// an observer may send into the outer signal or an inner one while it is being notified. See
    /// ``FlattenStrategy`` for when the result ends.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened signal.
    public func flatten<Inner: Sendable>(
        _ strategy: FlattenStrategy
    ) -> Signal<Inner, Error> where Value == SignalProducer<Inner, Error> {
        flatMap(strategy) { $0 }
    }

    /// A signal of the values of the producers `transform` makes from this signal's values, run according
    /// to `strategy`; see `flatten(_:)`.
    ///
    /// ```swift
    /// searchTerms.flatMap(.latest) { term in api.search(term) }  // a new term cancels the old search
    /// ```
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value; runs on the delivering thread, with no lock
    ///     held.
    /// - Returns: The flattened signal.
    public func flatMap<Inner: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, Error>
    ) -> Signal<Inner, Error> {
        Signal<Inner, Error>.makeOperator { input, lifetime in
            let outer = Flattener.outerObserver(strategy: strategy, input: input, lifetime: lifetime)
            lifetime += observe { event in outer.send(event.map(transform)) }
        }
    }
}

extension Signal where Error == Never {
    /// A signal of the values of the inner producers this signal sends, run according to `strategy`; the
    /// inner producers may fail; see `flatten(_:)`.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened signal, which fails when an inner run fails.
    public func flatten<Inner: Sendable, InnerError: Swift.Error>(
        _ strategy: FlattenStrategy
    ) -> Signal<Inner, InnerError> where Value == SignalProducer<Inner, InnerError> {
        promoteError(InnerError.self).flatMap(strategy) { $0 }
    }

    /// A signal of the values of the producers `transform` makes from this signal's values, which may
    /// fail; see `flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value.
    /// - Returns: The flattened signal, which fails when an inner run fails.
    public func flatMap<Inner: Sendable, InnerError: Swift.Error>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, InnerError>
    ) -> Signal<Inner, InnerError> {
        promoteError(InnerError.self).flatMap(strategy, transform)
    }
}

extension Signal where Error == Never {
    /// A signal of the values of the inner producers this signal sends, when neither can fail; see
    /// `flatten(_:)`.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened signal.
    public func flatten<Inner: Sendable>(
        _ strategy: FlattenStrategy
    ) -> Signal<Inner, Never> where Value == SignalProducer<Inner, Never> {
        flatMap(strategy) { $0 }
    }

    /// A signal of the values of the producers `transform` makes from this signal's values, when neither
    /// can fail; see `flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value.
    /// - Returns: The flattened signal.
    public func flatMap<Inner: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, Never>
    ) -> Signal<Inner, Never> {
        Signal<Inner, Never>.makeOperator { input, lifetime in
            let outer = Flattener.outerObserver(strategy: strategy, input: input, lifetime: lifetime)
            lifetime += observe { event in outer.send(event.map(transform)) }
        }
    }
}

extension SignalProducer {
    /// A producer whose runs run the inner producers this producer's run sends, according to `strategy`;
    /// see `Signal.flatten(_:)`.
    ///
    /// Disposing a run interrupts the outer run and every inner run.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened producer.
    public func flatten<Inner: Sendable>(
        _ strategy: FlattenStrategy
    ) -> SignalProducer<Inner, Error> where Value == SignalProducer<Inner, Error> {
        lift { $0.flatten(strategy) }
    }

    /// A producer whose runs run the producers `transform` makes from this producer's values, according
    /// to `strategy`; see `Signal.flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value.
    /// - Returns: The flattened producer.
    public func flatMap<Inner: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, Error>
    ) -> SignalProducer<Inner, Error> {
        lift { $0.flatMap(strategy, transform) }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose runs run the inner producers this producer sends, which may fail; see
    /// `Signal.flatten(_:)`.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened producer, whose runs fail when an inner run fails.
    public func flatten<Inner: Sendable, InnerError: Swift.Error>(
        _ strategy: FlattenStrategy
    ) -> SignalProducer<Inner, InnerError> where Value == SignalProducer<Inner, InnerError> {
        lift { $0.flatten(strategy) }
    }

    /// A producer whose runs run the producers `transform` makes from this producer's values, which may
    /// fail; see `Signal.flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value.
    /// - Returns: The flattened producer, whose runs fail when an inner run fails.
    public func flatMap<Inner: Sendable, InnerError: Swift.Error>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, InnerError>
    ) -> SignalProducer<Inner, InnerError> {
        lift { $0.flatMap(strategy, transform) }
    }
}

extension SignalProducer where Error == Never {
    /// A producer whose runs run the inner producers this producer sends, when neither can fail; see
    /// `Signal.flatten(_:)`.
    ///
    /// - Parameter strategy: How the inner producers run.
    /// - Returns: The flattened producer.
    public func flatten<Inner: Sendable>(
        _ strategy: FlattenStrategy
    ) -> SignalProducer<Inner, Never> where Value == SignalProducer<Inner, Never> {
        lift { $0.flatten(strategy) }
    }

    /// A producer whose runs run the producers `transform` makes from this producer's values, when neither
    /// can fail; see `Signal.flatMap(_:_:)`.
    ///
    /// - Parameters:
    ///   - strategy: How the inner producers run.
    ///   - transform: Makes the inner producer of a value.
    /// - Returns: The flattened producer.
    public func flatMap<Inner: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> SignalProducer<Inner, Never>
    ) -> SignalProducer<Inner, Never> {
        lift { $0.flatMap(strategy, transform) }
    }
}

/// Makes the outer observer of a flattening operator for a strategy.
enum Flattener {
    static func outerObserver<Inner: Sendable, Error: Swift.Error>(
        strategy: FlattenStrategy,
        input: OperatorInput<Inner, Error>,
        lifetime: Lifetime
    ) -> Signal<SignalProducer<Inner, Error>, Error>.Observer {
        switch strategy {
        case .latest:
            let flattener = LatestFlattener(input: input, lifetime: lifetime)
            return Signal.Observer({ flattener.receiveOuter($0) })
        case .merge:
            let flattener = ConcurrentFlattener(input: input, lifetime: lifetime, limit: .max)
            return Signal.Observer({ flattener.receiveOuter($0) })
        case .concat:
            let flattener = ConcurrentFlattener(input: input, lifetime: lifetime, limit: 1)
            return Signal.Observer({ flattener.receiveOuter($0) })
        case .concurrent(let limit):
            guard limit >= 1 else {
                fatalError("FlattenStrategy.concurrent(limit:) needs a limit of at least 1, got \(limit)")
            }
            let flattener = ConcurrentFlattener(input: input, lifetime: lifetime, limit: limit)
            return Signal.Observer({ flattener.receiveOuter($0) })
        }
    }
}
