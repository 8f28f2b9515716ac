extension PagingMachine {
    /// A catch-up of one end in progress: the fresh pages loaded so far, in list order.
    @usableFromInline
    struct CatchUp {
        @usableFromInline let end: ListEnd
        /// How many pages the catch-up may load before it replaces the rows it could not meet.
        @usableFromInline let maxPages: Int
        @usableFromInline var pages: [FreshPage] = []
        /// The catch-up's latest request: a load of it (the first, or a retry after it failed) is the
        /// catch-up's; a load of another key at that edge ends the catch-up.
        @usableFromInline var request: Request
        /// The ticket of the catch-up's load in flight.
        @usableFromInline var ticket: UInt64 = 0

        @inlinable
        init(end: ListEnd, maxPages: Int, request: Request) {
            self.end = end
            self.maxPages = maxPages
            self.request = request
        }
    }

    /// Asks the page at `end` again by its stored key, even after that edge ended ("are there newer
    /// messages now?"), to merge what the server has now with the rows shown (``commitCatchUp(_:_:)``).
    ///
    /// Nothing starts (`reason` says why) without a list, while a refresh or that edge loads, or while a
    /// memory bound keeps pages dropped beyond that end.
    @inlinable
    mutating func receiveCatchUp(at end: ListEnd, maxPages: Int, reason: inout IgnoredReason?) -> Effects {
        var effects = Effects()
        let direction = end.direction
        if !hasList || list.pageKeys.count == 0 {
            reason = refreshLane.phase.load != nil ? .refreshing : .notLoaded
        } else if refreshLane.phase.load != nil {
            reason = .refreshing
        } else if self[phase: direction].load != nil {
            reason = .alreadyLoading
        } else if !list[end: direction].dropped.isEmpty {
            reason = .nothingToDo
        }
        guard reason == nil else { return effects }
        edges[direction].cancelled = false
        let page = end == .top ? 0 : list.pageKeys.count - 1
        let request = Request(
            key: list.pageKeys[page].key, pageSize: configuration.pageSize, query: list.query,
            pageIndex: list.firstPageIndex + page, direction: direction)
        catchUp = CatchUp(end: end, maxPages: maxPages, request: request)
        startLoad(request, in: direction, &effects)
        publish(&effects)
        checkInvariants()
        return effects
    }

    /// Whether the load with `ticket` is the catch-up's.
    @inlinable
    func isCatchUp(_ ticket: UInt64) -> Bool {
        catchUp?.ticket == ticket
    }

    /// Records that a load of `request` started in `direction` with `ticket`: the catch-up's own (or a
    /// retry of it) takes the ticket; any other load at the catch-up's edge ends it.
    @inlinable
    mutating func noteLoadStarted(_ request: Request, in direction: PageDirection, ticket: UInt64) {
        guard let progress = catchUp, progress.end.direction == direction else { return }
        if request.key == progress.request.key {
            catchUp?.ticket = ticket
        } else {
            catchUp = nil
        }
    }

    /// Adds a page of the catch-up in progress: merges once the fresh pages meet the rows shown, else
    /// follows on toward them (at most the catch-up's page count), else replaces the rows with the fresh
    /// pages, so that no gap hides between them.
    @inlinable
    mutating func applyCatchUpPage(
        _ page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?, of load: Load, _ effects: inout Effects
    ) {
        guard var progress = catchUp else { return }
        let request = load.request
        let fresh = FreshPage(key: request.key, page: page, identities: identities)
        if progress.end == .bottom { progress.pages.insert(fresh, at: 0) } else { progress.pages.append(fresh) }
        if let onward = followOnKey(progress.pages, at: progress.end, after: page, maxPages: progress.maxPages) {
            let next = Request(
                key: onward, pageSize: configuration.pageSize, query: list.query,
                pageIndex: request.pageIndex + (progress.end == .bottom ? -1 : 1), direction: request.direction)
            progress.request = next
            catchUp = progress
            startLoad(next, in: request.direction, &effects)
            publish(&effects)
            return
        }
        catchUp = nil
        mergeFresh(progress.pages, at: progress.end, &effects)
    }

    /// The key of the page a merge of `fresh` (in list order) at `end` loads next, toward the rows shown,
    /// after `page` came in: only while the fresh pages meet no row shown, fewer than `maxPages` are in,
    /// `page` had rows, and the key was not asked for already (`nil`: merge what is in).
    @inlinable
    func followOnKey(
        _ fresh: [FreshPage], at end: ListEnd, after page: Page<Item, Key, Metadata>, maxPages: Int
    ) -> Key? {
        // Toward the rows shown: up from the bottom's page, down from the top's.
        let onward = end == .bottom ? page.previousKey : page.nextKey
        guard meetingRow(of: fresh, at: end) == nil, fresh.count < maxPages, !page.items.isEmpty, let onward,
            !fresh.contains(where: { $0.key == onward })
        else { return nil }
        return onward
    }

    /// The row shown where the fresh pages (in list order) of a merge at `end` meet the list, if they
    /// meet it.
    ///
    /// At the bottom, it is the first fresh row (in list order) that is shown; at the top, the last.
    /// Local rows do not count.
    @inlinable
    func meetingRow(of pages: [FreshPage], at end: ListEnd) -> Int? {
        var shown: [ItemIdentity: Int] = [:]
        var row = 0
        for page in 0..<list.pageKeys.count {
            for identity in list.pageKeys[page].identities ?? [] {
                if !list.localIdentities.contains(identity), shown[identity] == nil { shown[identity] = row }
                row += 1
            }
        }
        let fresh = pages.lazy.flatMap { $0.identities ?? [] }
        if end == .bottom { return fresh.lazy.compactMap { shown[$0] }.first }
        return fresh.reversed().lazy.compactMap { shown[$0] }.first
    }
}
