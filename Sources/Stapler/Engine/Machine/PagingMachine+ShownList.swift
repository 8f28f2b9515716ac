extension PagingMachine {
    /// The list shown, whole: its rows, each page's keys, each end's next key and dropped pages, the keys
    /// and identities it used, and where it sits (the rows prepended, its top page's position, the row
    /// last shown).
    ///
    /// The list owns its items, and the snapshot reads them when the machine publishes
    /// (``PagingMachine/publish(_:)``): so the list a query change blanked, the lists the query cache
    /// keeps and a saved list are each this one value, kept and brought back as it is, with no field to
    /// forget on the way and no way to pair one list's keys with another list's rows. The items are a
    /// persistent tree, so the snapshot's copy shares their storage and costs a reference count per
    /// publication, not a copy of the rows.
    @usableFromInline
    struct ShownList {
        /// One end of the list: the key a load there asks for next, and the pages the bound dropped beyond
        /// it.
        @usableFromInline
        struct End {
            /// The key the next load at this end asks for; `nil` once this end is reached.
            @usableFromInline var key: Key?
            /// The keys of the pages the memory bound dropped beyond this end, nearest last.
            @usableFromInline var dropped = DroppedPages<Key>()

            @inlinable
            init(key: Key? = nil) {
                self.key = key
            }
        }

        /// The rows shown, page by page.
        @usableFromInline var items = PagedItems<Item>()
        /// The keys of each shown page, in list order.
        @usableFromInline var pageKeys = PageKeyList<Key>()
        /// The top end: the key of the previous page.
        @usableFromInline var top = End()
        /// The bottom end: the key of the next page.
        @usableFromInline var bottom = End()
        /// Every key used by the list but the dropped pages' (``End/dropped`` holds those, in memory that
        /// does not grow with them when they are regular; ``claim(_:)`` asks both): the guard against keys
        /// that loop, in both directions.
        @usableFromInline var usedKeys: Set<Key> = []
        /// The identities of the shown items and of every item removed from the list, when deduplicating.
        @usableFromInline var loadedIdentities: Set<ItemIdentity> = []
        /// The identities of the local rows added at an end that no page has brought yet, when
        /// deduplicating.
        @usableFromInline var localIdentities: Set<ItemIdentity> = []
        /// The items edits removed (or replaced by an item of another identity), when deduplicating: their
        /// identities stay loaded, and a saved list carries them.
        @usableFromInline var removedByEdits: [Item] = []
        /// The query the list was loaded with: what its edge loads ask with.
        @usableFromInline var query: Query
        /// The total the latest page applied reported.
        @usableFromInline var total: Int?
        /// The metadata of the latest page applied.
        @usableFromInline var metadata: Metadata?
        /// Rows prepended since the list's first page (``PagingSnapshot/leadingCount``).
        @usableFromInline var leadingCount = 0
        /// The position of the top page from the list's first page (``PageRequest/pageIndex``).
        @usableFromInline var firstPageIndex = 0
        /// The row last shown, counted from the opening page's first row (see
        /// ``PagingMachine/recordAccess(row:)``).
        @usableFromInline var lastAccessedRow: Int?
        /// Whether a list (maybe empty) is shown and its edges can page: a first page was applied, and no
        /// query change blanked it since.
        @usableFromInline var isShown = false
        /// Whether the list's first page was empty (`noData`).
        @usableFromInline var wasEmpty = false

        /// No list yet: nothing shown, and `query` for the edges' loads.
        @inlinable
        init(query: Query) {
            self.query = query
        }

        /// The end a load in `edge` (``PageDirection/prepend`` or ``PageDirection/append``) pages at.
        @inlinable
        subscript(end edge: PageDirection) -> End {
            get { edge == .append ? bottom : top }
            _modify {
                if edge == .append { yield &bottom } else { yield &top }
            }
        }

        /// The row last shown, in the list's indices now (it may lie outside the list).
        @inlinable
        var accessedRow: Int? {
            lastAccessedRow.map { $0 + leadingCount }
        }

        /// Records `key` as used, unless the list used it already: a shown page's, an end's, or a dropped
        /// page's (the guard against keys that loop, in both directions).
        ///
        /// - Returns: Whether the key was new. A used key leaves the list unchanged. One lookup: checking
        ///   first and recording later would hash the key twice on every page.
        @inlinable
        mutating func claim(_ key: Key) -> Bool {
            guard !top.dropped.contains(key), !bottom.dropped.contains(key) else { return false }
            return usedKeys.insert(key).inserted
        }

        /// Forgets the dropped pages, the row last shown and the top page's position: new pages replace
        /// the ones they belonged to.
        @inlinable
        mutating func forgetDroppedPages() {
            top.dropped = DroppedPages()
            bottom.dropped = DroppedPages()
            lastAccessedRow = nil
            firstPageIndex = 0
        }

        /// Blanks the rows and pages (a query change with ``PagingPolicy/clearsOnQueryChange``): no list is
        /// shown; the keys, identities, total and metadata stay as they were until a new list replaces them.
        @inlinable
        mutating func blank() {
            items = PagedItems()
            pageKeys = PageKeyList()
            forgetDroppedPages()
            isShown = false
            leadingCount = 0
        }

        /// Traps, under `STAPLER_INTERNAL_CHECKS`, if the list breaks a rule it can check alone: one key
        /// record per page of rows, the storage's own invariants, and nothing shown, dropped or prepended
        /// while no list is shown.
        @inlinable
        func checkInvariants() {
            #if STAPLER_INTERNAL_CHECKS
                precondition(pageKeys.count == items.pageCount, "one key record per page")
                items.checkInvariants()
                if !isShown {
                    precondition(items.isEmpty && pageKeys.count == 0, "no rows while no list is shown")
                    precondition(top.dropped.isEmpty && bottom.dropped.isEmpty, "no dropped pages without a list")
                    precondition(leadingCount == 0 && firstPageIndex == 0, "no rows prepended without a list")
                }
            #endif
        }
    }
}

extension PagingMachine {
    /// Blanks the list shown (a query change with ``PagingPolicy/clearsOnQueryChange``), keeping it in
    /// the refresh's undo for `cancel()`.
    @inlinable
    mutating func blankList(_ effects: inout Effects) {
        refreshUndo?.blankedList = list
        effects.previousItemCount = list.items.count
        list.blank()
        snapshot.listSerial &+= 1
        effects.itemsChange = .cleared
    }

    /// Brings back the list a query change blanked (its refresh was cancelled), if any.
    @inlinable
    mutating func restoreBlankedList(_ blanked: ShownList?, _ effects: inout Effects) {
        guard let blanked else { return }
        show(blanked, &effects)
    }

    /// Shows `shown` (a list kept before) in place of the list shown, as one reload; its rows count as
    /// loaded, none as local.
    @inlinable
    mutating func show(_ shown: ShownList, _ effects: inout Effects) {
        effects.previousItemCount = list.items.count
        list = shown
        list.localIdentities = []
        list.isShown = true
        catchUp = nil
        snapshot.listSerial &+= 1
        effects.itemsChange = .reloaded
    }
}
