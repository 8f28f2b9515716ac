/// The input of an operator's output signal, which can decide the next event under that signal's lock.
///
/// Operators with several inputs (`combineLatest`, `zip`, `flatMap(.latest)`) receive events on several
/// threads at once. If each thread updated the operator's state under one lock and then sent the event
/// it computed after unlocking, two threads could send in the opposite order from the one in which they
/// changed the state, and observers would see an older combination after a newer one. `send(deciding:)`
/// runs the decision and accepts its event into the output signal in one critical section, so the order
/// of decisions is the order of delivery. The decision never calls user code, and the delivery itself
/// still happens outside every lock (a send during a delivery is queued, as for any signal).
///
/// Releasing the last reference interrupts the output signal, as releasing a signal's input does.
final class OperatorInput<Value: Sendable, Error: Swift.Error>: Sendable {
    typealias Event = Signal<Value, Error>.Event

    let core: SignalCore<Value, Error>

    init(core: SignalCore<Value, Error>) {
        self.core = core
    }

    /// Sends `event` to the output signal.
    func send(_ event: Event) {
        core.send(event)
    }

    /// Runs `decide` under the output signal's lock and accepts the event it returns in the same critical
    /// section; then sends the follow-up event `decide` left in its argument, if any.
    ///
    /// The follow-up is for operators that end right after a value (`zip`): `decide` must have recorded
    /// in its own state that the operator is done, so that no decision made in between emits anything.
    /// `decide` runs even if the output has terminated (its event is then dropped); it must not call user
    /// code or take any signal's lock.
    func send(deciding decide: (_ followUp: inout Event?) -> Event?) {
        var followUp: Event?
        core.send(whileLocked: { decide(&followUp) })
        if let followUp {
            core.send(followUp)
        }
    }

    deinit {
        core.send(.interrupted)
    }
}

extension Signal {
    /// Makes the output signal of an operator, with its input and its lifetime.
    ///
    /// The caller observes the signal if it needs to (a producer's run does so before starting its
    /// sources), then attaches the sources and adds their disposables to `lifetime`, which ends when the
    /// signal terminates or tears down.
    static func makeOperator() -> (signal: Signal, input: OperatorInput<Value, Error>, lifetime: Lifetime) {
        let core = SignalCore<Value, Error>()
        return (Signal(core: core), OperatorInput(core: core), core.lifetime)
    }
}

extension Signal {
    /// Makes the output signal of an operator and lets `attach` observe the sources into its input.
    ///
    /// `attach` adds the sources' disposables to the lifetime it is given, which ends when the output
    /// terminates or tears down.
    static func makeOperator(_ attach: (OperatorInput<Value, Error>, Lifetime) -> Void) -> Signal {
        let (signal, input, lifetime) = makeOperator()
        attach(input, lifetime)
        return signal
    }
}

extension SignalProducer {
    /// A producer whose every run makes an operator's output signal, observes it, and only then lets
    /// `attach` start the sources, so events that sources send while starting are not lost.
    ///
    /// Disposing the run stops the observation; the output, then unobserved and unreachable, tears down
    /// and its lifetime, which holds the sources' runs, ends.
    static func makeOperator(
        _ attach: @escaping @Sendable (OperatorInput<Value, Error>, Lifetime) -> Void
    ) -> SignalProducer {
        SignalProducer { observer, runLifetime in
            let (signal, input, lifetime) = Signal<Value, Error>.makeOperator()
            runLifetime += signal.observe(observer)
            attach(input, lifetime)
        }
    }
}

extension Lifetime {
    /// Starts `producer` with `observer` unless this lifetime has ended, and interrupts the run when it
    /// ends; the check is repeated under the lifetime's lock right before the work starts (see
    /// `SignalProducer.start(_:during:)`).
    func start<Value, Error>(_ producer: SignalProducer<Value, Error>, _ observer: Signal<Value, Error>.Observer) {
        guard !hasEnded else { return }
        producer.start(observer, during: self)
    }
}
