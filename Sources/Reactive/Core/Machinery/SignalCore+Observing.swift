extension SignalCore {
    /// Attaches `observer`; see `Signal.observe(_:)-(Observer)`.
    ///
    /// - Parameters:
    ///   - observer: Receives the events.
    ///   - initialEvent: Runs under the lock; the event it returns is delivered to this observer
    ///     only, before any event accepted later (a property's current value). On a terminated
    ///     signal it is delivered before the terminal event.
    /// - Returns: The disposable that detaches the observer.
    @inlinable
    func observe(_ observer: consuming Handler, initialEvent: () -> Event? = { nil }) -> any Disposable {
        attach(observer, initialEvent: initialEvent)
    }

    /// Attaches `observer` as `observe(_:initialEvent:)` does, and returns its entry.
    ///
    /// The observer is taken, not borrowed: the entry keeps the caller's reference, so attaching costs no
    /// retain and release of it.
    @inlinable
    func attach(_ observer: consuming Handler, initialEvent: () -> Event? = { nil }) -> ObserverEntry {
        var late: Event?
        var lateInitial: Event?
        var lateObserver: AnyObject?
        var first: Delivery?
        let entry = ObserverEntry(handler: consume observer, core: self)
        domain.withLock { state in
            switch list.phase {
            case .terminated:
                entry.isActive = false
                lateObserver = entry.handler.take()
                // A property whose change signal has ended still has a current value to send first.
                lateInitial = initialEvent()
                late = machine.terminalEvent ?? .interrupted
            case .terminating(let sequence):
                if let initial = initialEvent(), let terminalEvent = machine.terminalEvent {
                    // The current value must come first, and the drainer may be delivering the terminal
                    // event already: this observer gets both here, in order, and is never listed.
                    entry.isActive = false
                    lateObserver = entry.handler.take()
                    lateInitial = initial
                    late = terminalEvent
                } else {
                    entry.firstSequence = sequence
                    list.entries.append(entry)
                }
            case .alive:
                entry.firstSequence = state.sequence &+ 1
                list.entries.append(entry)
                if let event = initialEvent(),
                    case .deliver(let sequence) = machine.accept(event, for: entry, list: &list, domain: &state)
                {
                    first = Delivery(event: event, sequence: sequence, target: entry)
                }
            }
        }
        if let late, let lateObserver {
            let observer = unsafeDowncast(lateObserver, to: Handler.self)
            if let lateInitial { observer.send(lateInitial) }
            observer.send(late)
        } else if let first {
            drain(first, isBegun: false)
        }
        return entry
    }
}
