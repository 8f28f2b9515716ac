extension PagingMachine {
    /// What `cancel()` of the refresh in flight goes back to: the refresh's phase and the query that refresh
    /// left, the query's identity in the query cache, and the list a query change blanked for it.
    ///
    /// The machine holds one exactly while a refresh is in flight (a refresh asked again while one loads
    /// keeps the first one's, so a cancel undoes them all); a refresh that commits or fails drops it.
    @usableFromInline
    struct RefreshUndo {
        /// The refresh's phase before the refresh: idle, or the failed refresh a retry asks again.
        @usableFromInline let phase: Phase
        /// The query before the refresh.
        @usableFromInline var query: Query
        /// The query's identity in the query cache before the refresh, when a cache is on.
        @usableFromInline let queryKey: AnyHashable?
        /// The list a query change blanked, kept so that `cancel()` can bring it back.
        @usableFromInline var blankedList: ShownList?

        @inlinable
        init(phase: Phase, query: Query, queryKey: AnyHashable?) {
            self.phase = phase
            self.query = query
            self.queryKey = queryKey
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the undo breaks a rule it can check alone: the phase it
        /// restores holds no load, and a blanked list was a list shown.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                precondition(phase.load == nil, "a cancelled refresh does not bring a load back")
                if let blankedList {
                    precondition(blankedList.isShown, "only a list shown is blanked")
                    blankedList.checkInvariants()
                }
            #endif
        }
    }
}

extension PagingMachine {
    /// Remembers what `cancel()` of the refresh about to start goes back to: the refresh's phase, the
    /// query, and the query's identity in the cache.
    @inlinable
    mutating func rememberBeforeRefresh() {
        refreshUndo = RefreshUndo(phase: refreshLane.phase, query: query, queryKey: queryCache?.queryKey)
    }
}
