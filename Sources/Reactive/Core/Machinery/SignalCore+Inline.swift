extension SignalCore {
    /// Delivers `event` to the observers of this derived signal, within the delivery of its upstream.
    ///
    /// A derived signal's only sender is its upstream's delivery, which is already serialised, so it
    /// needs no queue and no drainer of its own: the upstream's drainer calls this from its callout to the
    /// derived signal's feed, at once. The lock is the upstream's (shared), so each recipient costs one
    /// lock round trip, and the last one none: nothing can be queued here. A signal whose only observer is
    /// the one it had for the last value takes no lock at all: it reads its ``SoleRecipient`` instead,
    /// whose version changes with every change to the observer list. Everything else is the same as for
    /// any signal: the observers are those attached before the upstream accepted the event, each is
    /// checked just before its callout (disposal wins), a send into the upstream from a callout is queued
    /// behind the current delivery, and a handler detached during a callout is parked and released by the
    /// upstream's drainer.
    ///
    /// Call only from the callout of the observation that feeds this signal, with no lock held.
    @inlinable
    func deliverInline(_ event: Event) {
        guard !event.isTerminating else {
            deliverInlineTerminal(event)
            return
        }
        // The usual case: one observer, the same as for the last value, reached with no lock taken.
        if let handler = soleRecipient?._withUnsafeGuaranteedRef({ $0.current }) {
            #if STAPLER_INTERNAL_CHECKS
                checkSoleRecipient(handler)
            #endif
            Self.typed(handler)._withUnsafeGuaranteedRef { $0.send(event) }
            return
        }
        var sequence: UInt64 = 0
        var recipient: Unmanaged<AnyObject>?
        var hasMore = false
        domain.withLock { state in
            guard list.isAlive else { return }
            sequence = state.deliverySequence
            list.rewind()
            recipient = list.nextValueRecipient(sequence: sequence)
            hasMore = list.cursor < list.entries.count
            // Remembered only when it is the only entry and receives this value: every later value of the
            // domain has a later number, so it receives those too while the list stays as it is.
            let only = list.entries.count == 1 ? recipient : nil
            soleRecipient?._withUnsafeGuaranteedRef { $0.remember(only) }
        }
        while let handler = recipient {
            Self.typed(handler)._withUnsafeGuaranteedRef { $0.send(event) }
            // Observers attached since the last look come after it and get later events only; one
            // detached since is not looked at again. So if none was left then, none is left now.
            guard hasMore else { return }
            recipient = domain.withLock { _ in
                defer { hasMore = list.cursor < list.entries.count }
                return list.nextValueRecipient(sequence: sequence)
            }
        }
    }

    /// Delivers the terminal `event` inline (see `deliverInline(_:)`), then terminates the signal and ends
    /// its observation of the upstream.
    ///
    /// As for any signal, each observer gets the terminal event once, and one attached while it is being
    /// delivered gets it too. Unlike a value, it goes to every observer attached before the signal
    /// terminates, whatever its sequence number: one attached after the upstream accepted its terminal
    /// event (while it was still on its way to the feed) would otherwise never get a terminal event. A
    /// signal that is not derived gets the same result from its `terminating` phase, which starts when it
    /// accepts the event.
    @inlinable
    func deliverInlineTerminal(_ event: Event) {
        let sequence = UInt64.max
        let isLive = domain.withLock { _ -> Bool in
            guard list.isAlive else { return false }
            machine.markTerminating(with: event, sequence: sequence, list: &list)
            list.rewind()
            return true
        }
        guard isLive else { return }
        var recipient: Unmanaged<AnyObject>?
        var held: AnyObject?
        var retired: Machine.Retired?
        while true {
            let isDone = domain.withLock { _ -> Bool in
                recipient = list.nextTerminalRecipient(sequence: sequence, held: &held)
                guard recipient == nil else { return false }
                retired = machine.terminate(with: event, list: &list)
                return true
            }
            if isDone {
                break
            }
            if let handler = recipient {
                Self.typed(handler)._withUnsafeGuaranteedRef { $0.send(event) }
                recipient = nil
                held = nil
            }
        }
        withExtendedLifetime(retired) {}
        endLifetime()
    }

    #if STAPLER_INTERNAL_CHECKS
        /// Checks, under the lock, that the observer list really is what ``soleRecipient`` remembers,
        /// unless it changed since the unlocked read (another thread attached or detached meanwhile).
        @usableFromInline
        func checkSoleRecipient(_ handler: Unmanaged<AnyObject>) {
            domain.withLock { _ in
                guard soleRecipient?.takeUnretainedValue().current != nil else { return }
                precondition(list.isAlive, "a remembered recipient outlived its signal")
                precondition(
                    list.entries.count == 1 && list.entries[0].isActive
                        && list.entries[0].handler.map { $0 === handler.takeUnretainedValue() } == true,
                    "a derived signal's observer list changed without forgetting its remembered recipient")
            }
        }
    #endif
}
