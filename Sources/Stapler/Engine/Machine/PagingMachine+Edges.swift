extension PagingMachine {
    /// One direction's load and what its failures left: the phase, the automatic retries since its last
    /// success or explicit retry, and the serial of its latest failure.
    @usableFromInline
    struct LoadLane {
        /// The load in flight, the request that failed, or nothing.
        @usableFromInline var phase: Phase = .idle
        /// Automatic retries made since the last success or explicit retry.
        @usableFromInline var autoRetries = 0
        /// The serial of this direction's latest failure (0: none yet); published while the phase holds it.
        @usableFromInline var failedAt: UInt64 = 0

        @inlinable
        init() {}

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the lane breaks a rule it can check alone: a failure
        /// shown has a serial, and the retry count is not negative.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                precondition(phase.error == nil || failedAt != 0, "a failure has a serial")
                precondition(autoRetries >= 0, "no negative retry count")
            #endif
        }
    }

    /// One edge of the list as it loads (the top's prepends, or the bottom's appends): its lane and the
    /// counters of its pages.
    @usableFromInline
    struct EdgeState {
        /// The edge's load, retries and latest failure.
        @usableFromInline var lane = LoadLane()
        /// Pages in a row that added nothing.
        @usableFromInline var idlePages = 0
        /// Set when the edge ended because pages added nothing: how many (the bottom's is published as
        /// ``StopReason/noProgress(pages:)``).
        @usableFromInline var stoppedWithoutProgress: Int?
        /// Whether `cancel()` stopped the edge's load (until it loads again; the bottom's is published as
        /// ``StopReason/cancelled``).
        @usableFromInline var cancelled = false
        /// Whether the edge asked for a page since the list was shown (the bottom's drives the next-page
        /// indicator).
        @usableFromInline var requestedPage = false

        @inlinable
        init() {}

        /// Forgets what the pages of the list before counted: a new list is shown.
        @inlinable
        mutating func forgetCounters() {
            idlePages = 0
            stoppedWithoutProgress = nil
            cancelled = false
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the edge breaks a rule it can check alone: its lane's
        /// rules, no negative page count, and a cancelled edge has no load in flight.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                lane.checkInvariants()
                precondition(idlePages >= 0, "no negative page count")
                precondition(!cancelled || lane.phase.load == nil, "a cancelled edge has no load in flight")
            #endif
        }
    }

    /// The two edges of the list, by the direction that pages there.
    @usableFromInline
    struct Edges {
        /// The top edge: prepends.
        @usableFromInline var top = EdgeState()
        /// The bottom edge: appends.
        @usableFromInline var bottom = EdgeState()

        @inlinable
        init() {}

        /// The edge `edge` (``PageDirection/prepend`` or ``PageDirection/append``) pages at.
        @inlinable
        subscript(_ edge: PageDirection) -> EdgeState {
            get { edge == .append ? bottom : top }
            _modify {
                if edge == .append { yield &bottom } else { yield &top }
            }
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if either edge breaks its rules.
        @inlinable
        func checkInvariants() {
            top.checkInvariants()
            bottom.checkInvariants()
        }
    }
}
