extension PagingMachine {
    /// What a machine is set up with, fixed for its life: the page size, the policy's limits, the memory
    /// bound, placeholders and the jump.
    ///
    /// It is one `let` of the machine, so no transition can change it; its values are checked once, when
    /// the machine is made (``checkInvariants()``).
    @usableFromInline
    struct Configuration {
        /// How many items every request asks for (at least 1).
        @usableFromInline let pageSize: Int
        /// How many pages in a row may add nothing (see ``PagingPolicy/noProgressLimit``); `nil` for the
        /// default rule.
        @usableFromInline let noProgressLimit: Int?
        /// How many automatic retries follow one failure; 0 for none.
        @usableFromInline let maxAutoRetries: Int
        /// The memory bound, if any (see ``PagingMachine/enforceBound(after:keepingFailedEnds:_:)``).
        @usableFromInline let bound: MemoryBound?
        /// Whether the list is shown at full length, with placeholders (see ``PagedSlots``).
        @usableFromInline let placeholders: Bool
        /// How far from the loaded rows, in slots, a preload jumps; with the key of a slot's page.
        @usableFromInline let jump: (threshold: Int, key: @Sendable (_ slot: Int, _ pageSize: Int) -> Key)?

        @inlinable
        init(
            pageSize: Int, noProgressLimit: Int?, maxAutoRetries: Int, bound: MemoryBound?, placeholders: Bool,
            jump: (threshold: Int, key: @Sendable (_ slot: Int, _ pageSize: Int) -> Key)?
        ) {
            self.pageSize = pageSize
            self.noProgressLimit = noProgressLimit
            self.maxAutoRetries = maxAutoRetries
            self.bound = bound
            self.placeholders = placeholders
            self.jump = jump
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, unless the values are ones the callers validated: a page
        /// size and a no-progress limit of at least 1, no negative retry count, distance or threshold.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                precondition(pageSize >= 1, "a page size of at least 1")
                precondition((noProgressLimit ?? 1) >= 1, "a no-progress limit of at least 1")
                precondition(maxAutoRetries >= 0, "no negative retry count")
                precondition((bound?.keptDistance ?? 0) >= 0, "no negative kept distance")
                precondition((jump?.threshold ?? 0) >= 0, "no negative jump threshold")
            #endif
        }
    }
}
