extension PagingMachine {
    /// What the engine must do after a transition.
    ///
    /// Effects hold flags and plain values only: a generic payload would make every transition, even one
    /// that does nothing, destroy its effects through value witnesses.
    @usableFromInline
    struct Effects {
        /// The directions whose slot now holds a load to start.
        @usableFromInline var started: DirectionSet = []
        /// Tickets of loads to dispose (at most one per direction).
        @usableFromInline var cancelledRefresh: UInt64?
        @usableFromInline var cancelledPrepend: UInt64?
        @usableFromInline var cancelledAppend: UInt64?
        /// Whether the snapshot changed and must be published.
        @usableFromInline var publish = false
        /// Whether a page was applied (its metadata became the snapshot's).
        @usableFromInline var appliesPage = false
        /// Whether the query changed (a refresh with a query, or a cancelled one that restored the old).
        @usableFromInline var changesQuery = false
        /// The items change to publish with the snapshot.
        @usableFromInline var itemsChange: ItemsChange?
        /// The items before ``itemsChange``.
        @usableFromInline var previousItems = PagedItems<Item>()
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
        /// Edge loads that ended in this transition, and how, for the calls that await them.
        @usableFromInline var endedPrepend: (ticket: UInt64, end: LoadEnd)?
        @usableFromInline var endedAppend: (ticket: UInt64, end: LoadEnd)?
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

        @inlinable
        init() {}

        @inlinable
        var isEmpty: Bool {
            started.isEmpty && cancelledRefresh == nil && cancelledPrepend == nil && cancelledAppend == nil
                && !publish && firstPageOutcomes.isEmpty && scheduleRetry == nil && !cancelsRetry
        }

        /// Whether the calls awaiting a load must hear of this transition.
        @inlinable
        var settlesWaiters: Bool {
            !firstPageOutcomes.isEmpty || endedPrepend != nil || endedAppend != nil || abandonedRetry != nil
        }

        /// Whether a load starts.
        @inlinable
        var startsLoad: Bool { !started.isEmpty }

        /// Records that the edge load with `ticket` of `direction` ended as `end`.
        @inlinable
        mutating func end(_ ticket: UInt64, of direction: PageDirection, as end: LoadEnd) {
            switch direction {
            case .refresh: break
            case .prepend: endedPrepend = (ticket, end)
            case .append: endedAppend = (ticket, end)
            }
        }

        /// Records that the load with `ticket` of `direction` must be disposed.
        @inlinable
        mutating func cancel(_ ticket: UInt64, of direction: PageDirection) {
            switch direction {
            case .refresh: cancelledRefresh = ticket
            case .prepend: cancelledPrepend = ticket
            case .append: cancelledAppend = ticket
            }
        }

        /// The ticket to dispose in `direction`, if any.
        @inlinable
        func cancelled(_ direction: PageDirection) -> UInt64? {
            switch direction {
            case .refresh: cancelledRefresh
            case .prepend: cancelledPrepend
            case .append: cancelledAppend
            }
        }
    }
}

/// How a load ended, for the calls that await it (a failure's error is its slot's).
@usableFromInline
enum LoadEnd: Sendable {
    case loaded, failed, superseded, cancelled
}

/// A set of directions, one bit each.
@usableFromInline
struct DirectionSet: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    @inlinable
    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    @inlinable
    init(_ direction: PageDirection) {
        rawValue = 1 << UInt8(direction.rawValue)
    }

    @inlinable
    func contains(_ direction: PageDirection) -> Bool {
        contains(DirectionSet(direction))
    }
}
