extension PagingMachine {
    /// What `cancel()` of the refresh in flight goes back to: the refresh slot and the query that refresh
    /// left, the query's identity in the query cache, and the list a query change blanked for it.
    ///
    /// The machine holds one exactly while a refresh is in flight (a refresh asked again while one loads
    /// keeps the first one's, so a cancel undoes them all); a refresh that commits or fails drops it.
    @usableFromInline
    struct RefreshUndo {
        /// The refresh slot before the refresh: idle, or the failed refresh a retry asks again.
        @usableFromInline let slot: Slot
        /// The query before the refresh.
        @usableFromInline var query: Query
        /// The query's identity in the query cache before the refresh, when a cache is on.
        @usableFromInline let queryKey: AnyHashable?
        /// The list a query change blanked, kept so that `cancel()` can bring it back.
        @usableFromInline var blankedList: ShownList?

        @inlinable
        init(slot: Slot, query: Query, queryKey: AnyHashable?) {
            self.slot = slot
            self.query = query
            self.queryKey = queryKey
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the undo breaks a rule it can check alone: the slot it
        /// restores holds no load, and a blanked list was a list shown.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                precondition(slot.load == nil, "a cancelled refresh does not bring a load back")
                if let blankedList {
                    precondition(blankedList.isShown, "only a list shown is blanked")
                    blankedList.checkInvariants()
                }
            #endif
        }
    }
}

extension PagingMachine {
    /// Remembers what `cancel()` of the refresh about to start goes back to: the refresh slot, the
    /// query, and the query's identity in the cache.
    @inlinable
    mutating func rememberBeforeRefresh() {
        refreshUndo = RefreshUndo(slot: refreshLane.slot, query: query, queryKey: queryCache?.queryKey)
    }
}
