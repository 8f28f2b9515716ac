extension SignalCore {
    /// How many events one drain may deliver in a debug build before it is taken for a feedback loop.
    @inlinable
    static var feedbackLoopLimit: Int { 1_000_000 }

    /// Traps: one drain delivered more than `feedbackLoopLimit` events, which in practice means observers
    /// that keep sending into the signal they observe (directly or through properties) for ever.
    ///
    /// Called by debug builds only, so that a hang becomes a failure that names the signal's type.
    @usableFromInline
    @inline(never)
    static func reportFeedbackLoop() -> Never {
        preconditionFailure(
            "possible feedback loop: one drain of Signal<\(Value.self), \(Error.self)> delivered more than "
                + "\(feedbackLoopLimit) events; an observer keeps sending into the signal it observes"
        )
    }
}
