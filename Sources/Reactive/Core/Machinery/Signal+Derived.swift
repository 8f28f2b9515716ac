extension Signal {
    /// A signal whose events are `transform` of this signal's events, delivered inline within this
    /// signal's deliveries: the model of the single-input operators that turn each event into at most one
    /// event (`map`, `filter`, `compactMap`, `mapError`, `promoteError`).
    ///
    /// `transform` runs once per event of this signal, however many observers the derived signal has, on
    /// the delivering thread, never concurrently with itself, while the derived signal is alive (observed
    /// or reachable). It must pass terminal events through (as terminal events): the derived signal ends
    /// when this one does. The derived signal shares this signal's lock and needs no queue of its own (see
    /// `SignalCore.deliverInline(_:)`); it lives while this signal lives and it is observed or reachable,
    /// and it ends its observation of this signal when it terminates or tears down.
    ///
    /// - Parameter transform: Maps an event, or drops a value by returning `nil`.
    /// - Returns: The derived signal.
    @inlinable
    func derive<NewValue: Sendable, NewError: Swift.Error>(
        _ transform: @escaping @Sendable (Event) -> Signal<NewValue, NewError>.Event?
    ) -> Signal<NewValue, NewError> {
        let derived = SignalCore<NewValue, NewError>(derivedFrom: core)
        let feed = core.attach(
            Observer({ [derived] event in
                if let derivedEvent = transform(event) {
                    derived.deliverInline(derivedEvent)
                }
            }))
        // The feed may already have delivered this signal's terminal event (it had terminated, or another
        // thread delivered it meanwhile); the derived signal then ended without a feed to dispose.
        let hasEnded = derived.domain.withLock { _ -> Bool in
            if case .terminated = derived.list.phase { return true }
            derived.upstream = feed
            return false
        }
        if hasEnded {
            feed.dispose()
        }
        return Signal<NewValue, NewError>(core: derived)
    }
}
