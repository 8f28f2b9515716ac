#if DEBUG
    /// A lower feedback-loop limit for this process, or 0 for the default of a million events.
    ///
    /// The package's trap tests set it before they provoke a loop: they then deliver thousands of events,
    /// not a million, which under a sanitizer takes seconds instead of minutes; what they check (the trap
    /// and its message) is the same.
    @usableFromInline package let feedbackLoopLimitForTests = AtomicWord()
#endif

extension SignalCore {
    /// How many events one drain may deliver in a debug build before it is taken for a feedback loop.
    @inlinable
    static var feedbackLoopLimit: Int {
        #if DEBUG
            let lowered = feedbackLoopLimitForTests.relaxedLoad()
            return lowered > 0 ? lowered : 1_000_000
        #else
            1_000_000
        #endif
    }

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
