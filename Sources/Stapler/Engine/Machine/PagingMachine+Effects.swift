extension PagingMachine {
    /// What the engine must do after a transition.
    ///
    /// Effects hold flags and plain values only: a generic payload would make every transition, even one
    /// that does nothing, destroy its effects through value witnesses.
    @usableFromInline
    struct Effects {
        /// What to do with the refresh's loads.
        @usableFromInline var refreshLoads = LoadCommand()
        /// What to do with the top edge's loads.
        @usableFromInline var prependLoads = LoadCommand()
        /// What to do with the bottom edge's loads.
        @usableFromInline var appendLoads = LoadCommand()
        /// Whether the snapshot changed and must be published.
        @usableFromInline var publish = false
        /// Whether a page was applied (its metadata became the snapshot's).
        @usableFromInline var appliesPage = false
        /// Whether the query changed (a refresh with a query, or a cancelled one that restored the old).
        @usableFromInline var changesQuery = false
        /// The items change to publish with the snapshot.
        @usableFromInline var itemsChange: ItemsChange?
        /// How many items there were before ``itemsChange`` (the slots before it are counted with them).
        @usableFromInline var previousItemCount = 0
        /// How the slots changed (``PagedSlots``), and the placeholder counts before the transition.
        @usableFromInline var slotsChange: ItemsChange?
        /// Whether the memory bound dropped pages (their rows' slots become placeholders).
        @usableFromInline var dropsPages = false
        @usableFromInline var previousPlaceholders: (before: Int, after: Int)?
        /// The row of the previous items a refresh around a row was anchored at.
        @usableFromInline var anchor: Int?
        /// The error of an edge page that failed, for `errorsAfterFirstPage`.
        @usableFromInline var laterPageError: PagingError<Failure>?
        /// First-page outcomes to report, by generation.
        @usableFromInline var firstPageOutcomes: [(generation: UInt64, outcome: FirstPageOutcome<Failure>)] = []
        /// An automatic retry to schedule: of `direction`'s failed load, the `attempt`-th since the last
        /// success, for the failure with `serial`.
        @usableFromInline var scheduleRetry: (direction: PageDirection, attempt: Int, serial: UInt64)?
        /// Whether a scheduled automatic retry must be cancelled (a refresh, a cancel, an explicit retry).
        @usableFromInline var cancelsRetry = false
        /// The edge whose scheduled automatic retry was dropped without a load taking its place, and how
        /// the calls awaiting that edge end.
        @usableFromInline var abandonedRetry: (direction: PageDirection, end: LoadEnd)?
        /// Set by transitions outside the seed's table (a restored list); skips the transition check.
        @usableFromInline var allowsAnyMove = false
        /// Kept lists of the query cache to evict after a delay, by entry serial.
        @usableFromInline var schedulesEviction: [(serial: UInt64, after: Duration)] = []

        @inlinable
        init() {}

        /// Whether the engine has nothing to do: no load to start or dispose, nothing to publish or report,
        /// no retry to schedule or cancel.
        @inlinable
        var isEmpty: Bool {
            !startsLoad && refreshLoads.disposes == nil && prependLoads.disposes == nil
                && appendLoads.disposes == nil && !publish && firstPageOutcomes.isEmpty && scheduleRetry == nil
                && !cancelsRetry && schedulesEviction.isEmpty
        }

        /// Whether the calls awaiting a load must hear of this transition.
        @inlinable
        var settlesWaiters: Bool {
            !firstPageOutcomes.isEmpty || prependLoads.ended != nil || appendLoads.ended != nil
                || abandonedRetry != nil
        }

        /// Whether a load starts.
        @inlinable
        var startsLoad: Bool { refreshLoads.starts || prependLoads.starts || appendLoads.starts }

        /// What to do with `direction`'s loads.
        @inlinable
        subscript(loads direction: PageDirection) -> LoadCommand {
            get {
                switch direction {
                case .refresh: refreshLoads
                case .prepend: prependLoads
                case .append: appendLoads
                }
            }
            _modify {
                switch direction {
                case .refresh: yield &refreshLoads
                case .prepend: yield &prependLoads
                case .append: yield &appendLoads
                }
            }
        }

        /// Records that the edge load with `ticket` of `direction` ended as `end` (a refresh's end reaches
        /// its callers as a first-page outcome instead).
        @inlinable
        mutating func end(_ ticket: UInt64, of direction: PageDirection, as end: LoadEnd) {
            if direction != .refresh { self[loads: direction].ended = (ticket, end) }
        }

        /// Records that the load with `ticket` of `direction` must be disposed.
        @inlinable
        mutating func cancel(_ ticket: UInt64, of direction: PageDirection) {
            self[loads: direction].disposes = ticket
        }
    }

    /// What the engine must do with one direction's loads after a transition: start the load its phase
    /// now holds, dispose a superseded one, and tell the calls awaiting an edge's load how it ended.
    @usableFromInline
    struct LoadCommand {
        /// Whether the direction's phase now holds a new load to start.
        @usableFromInline var starts = false
        /// The ticket of a load to dispose (at most one per direction and transition).
        @usableFromInline var disposes: UInt64?
        /// The edge load that ended in this transition, and how, for the calls that await it; never set
        /// for the refresh.
        @usableFromInline var ended: (ticket: UInt64, end: LoadEnd)?

        @inlinable
        init() {}
    }
}

/// How a load ended, for the calls that await it (a failure's error is its phase's).
@usableFromInline
enum LoadEnd: Sendable {
    case loaded, failed, superseded, cancelled
}
