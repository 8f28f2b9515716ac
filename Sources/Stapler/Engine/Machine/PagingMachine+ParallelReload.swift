extension PagingMachine {
    /// The requests of a reload of every shown page in parallel (``RefreshMode/reloadAllInParallel(max:)``),
    /// in list order: each page by its stored key, numbered from the page the list was opened at, and each
    /// but the last bounded by the key of the page after it.
    @inlinable
    func parallelRequests() -> [Request] {
        let pages = list.pageKeys.count
        let opening = min(max(-list.firstPageIndex, 0), pages - 1)
        return (0..<pages).map { page in
            Request(
                key: list.pageKeys[page].key, pageSize: configuration.pageSize, query: query,
                pageIndex: page - opening, direction: .refresh,
                followingKey: page + 1 < pages ? list.pageKeys[page + 1].key : nil)
        }
    }

    /// Applies the pages of a reload of every shown page in parallel, in list order, if that load is still
    /// the refresh in flight: one update replaces the rows when the pages line up (``pagesLineUp(_:)``);
    /// otherwise nothing of them is shown, and the refresh reloads every page one at a time from the page
    /// the list was opened at (the data moved while they loaded).
    @inlinable
    mutating func receiveBatchLoaded(
        ticket: UInt64, pages: [(page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?)]
    ) -> Effects {
        var effects = Effects()
        guard direction(of: ticket) == .refresh, let load = refreshLane.phase.load, let batch = batch(of: load),
            let plan = progress, batch.requests.count == pages.count
        else { return effects }
        effects.cancel(ticket, of: .refresh)
        refreshLane.phase = .idle
        let fresh = zip(batch.requests, pages).map { FreshPage(key: $0.key, page: $1.page, identities: $1.identities) }
        if pagesLineUp(fresh) {
            var opening = 0
            if case .reloadAll(let above, _) = plan.goal { opening = above }
            commitList(fresh, anchor: nil, openingPage: opening, &effects)
        } else {
            // The sequential walk: its plan is the same, with no page in yet.
            progress = RefreshProgress(goal: plan.goal)
            startLoad(load.request, in: .refresh, &effects)
            publish(&effects)
        }
        effects.end(ticket, of: .refresh, as: .loaded)
        checkInvariants()
        return effects
    }

    /// Whether fresh pages loaded in parallel (in list order) make one list: each page but the last names
    /// the next one's key as its next key, the next page has rows and does not start with a row of the page
    /// before it, and every page reports the same total (no negative one).
    @inlinable
    func pagesLineUp(_ pages: [FreshPage]) -> Bool {
        if pages.contains(where: { ($0.page.total ?? 0) < 0 }) { return false }
        for (upper, lower) in zip(pages, pages.dropFirst()) {
            guard let next = upper.page.nextKey, next == lower.key, !lower.page.items.isEmpty,
                upper.page.total == lower.page.total
            else { return false }
            if let first = lower.identities?.first, upper.identities?.contains(first) == true { return false }
        }
        return true
    }
}
