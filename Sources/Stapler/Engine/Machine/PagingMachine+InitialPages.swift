extension PagingMachine {
    /// How a first page loads several pages up front (``PagingOptions/initialPages``).
    @usableFromInline
    struct InitialPages {
        /// How the pages are asked for.
        @usableFromInline
        enum Requests {
            /// One request for all of them, `count × pageSize` rows (offsets, a cursor API with a size).
            case one
            /// One request per page, several at once; the key of the page holding a row.
            case parallel(key: @Sendable (_ slot: Int, _ pageSize: Int) -> Key)
            /// One request per page, each after the page before it.
            case inTurn
        }

        @usableFromInline let count: Int
        @usableFromInline let maxConcurrent: Int
        @usableFromInline let requests: Requests

        /// How `source` loads `initial.count` pages up front, or `nil` for one page.
        @inlinable
        init?(
            _ initial: (count: Int, maxConcurrent: Int), of source: PageSource<Item, Key, Query, Metadata, Failure>
        ) {
            guard initial.count > 1 else { return nil }
            count = initial.count
            maxConcurrent = initial.maxConcurrent
            switch source.model {
            case .offset, .cursor: requests = .one
            case .pageNumber: requests = source.slotKey.map { .parallel(key: $0) } ?? .inTurn
            case .exhaustible, .singleLoad, .custom: requests = .inTurn
            }
        }
    }

    /// How a first page at `key` loads the pages up front: the size of its request, the plan of a load of
    /// several requests, and the requests to run at once.
    ///
    /// Pages over page numbers load at once only from the first page, whose following keys are computable.
    @inlinable
    func initialLoad(_ initial: InitialPages, at key: Key) -> (
        pageSize: Int, plan: RefreshProgress?, batch: PageBatch<Key, Query>?
    ) {
        let pageSize = configuration.pageSize
        let plan = RefreshProgress(goal: .initialPages(initial.count))
        switch initial.requests {
        case .one:
            return (initial.count * pageSize, nil, nil)
        case .parallel(let slotKey) where slotKey(0, pageSize) == key:
            let requests = (0..<initial.count).map { page in
                Request(
                    key: slotKey(page * pageSize, pageSize), pageSize: pageSize, query: query, pageIndex: page,
                    direction: .refresh)
            }
            return (pageSize, plan, PageBatch(requests: requests, maxConcurrent: initial.maxConcurrent))
        case .parallel, .inTurn:
            return (pageSize, plan, nil)
        }
    }

    /// Publishes the first pages of a load of several pages up front that failed at `request`: the pages
    /// before it in one update, and `request` as a failed next page that `retry()` asks for again.
    ///
    /// - Returns: Whether it did; nothing is published when no page came in (the refresh itself failed).
    @inlinable
    mutating func failAfterInitialPages(
        with error: PagingError<Failure>, request: Request, _ effects: inout Effects
    ) -> Bool {
        guard case .initialPages? = progress?.goal, let plan = progress, !plan.below.isEmpty else { return false }
        refreshLane.phase = .idle
        commitList(plan.pages, anchor: nil, &effects)
        let next = Request(
            key: request.key, pageSize: configuration.pageSize, query: query,
            pageIndex: list.firstPageIndex + list.pageKeys.count, direction: .append)
        edges.bottom.requestedPage = true
        // One publication goes from the refresh to the rows with a failed next page, a move the seven
        // states have no single step for.
        effects.allowsAnyMove = true
        fail(.append, with: error, request: next, &effects)
        return true
    }

    /// Records the failure of a load of several pages at once with `ticket`, after the first pages of it
    /// (in order, `arrived`) came in: pages up front publish those that line up and fail at the next
    /// (``failAfterInitialPages(with:request:_:)``); any other load fails as a whole.
    @inlinable
    mutating func receiveBatchFailed(
        ticket: UInt64, arrived: [(page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?)],
        error: PagingError<Failure>
    ) -> Effects {
        guard direction(of: ticket) == .refresh, let load = refreshLane.phase.load, let batch = batch(of: load),
            case .initialPages? = progress?.goal, arrived.count < batch.requests.count
        else { return receiveFailed(ticket: ticket, error: error) }
        let fresh = zip(batch.requests, arrived).map {
            FreshPage(key: $0.key, page: $1.page, identities: $1.identities)
        }
        guard pagesLineUp(fresh) else { return receiveFailed(ticket: ticket, error: error) }
        for page in fresh { progress?.add(page, up: false) }
        var effects = Effects()
        effects.cancel(ticket, of: .refresh)
        fail(.refresh, with: error, request: batch.requests[arrived.count], &effects)
        checkInvariants()
        return effects
    }
}
