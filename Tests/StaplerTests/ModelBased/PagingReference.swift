/// The reference model: what a paginator must show after each operation, written as plainly as possible
/// from the documented contract (StateMachine.md and the `Paginator` documentation), not from the engine's code.
///
/// Keys are plain integers for both page models: an offset, or the position a cursor points at (the
/// first cursor, `nil`, is 0). The list has two ends: a session may open it mid-way, page up and down,
/// edit its rows, and refresh it in several modes.
struct PagingReference {
    static let pageSize = 5
    static let prefetchDistance = 2
    /// The size of the list of each query.
    static let sizes = [23, 7, 0, 10]

    /// A deliberately wrong reference, to prove that the harness notices a difference.
    enum Mutation {
        /// Applies a late answer of a superseded later page (the bug of the original Stapler).
        case appliesStaleResponses
        /// Remembers the identities loaded before a refresh and drops them from the new generation.
        case keepsIdentitiesAcrossRefresh
        /// Lets a load run past its timeout.
        case ignoresLoadTimeouts
        /// Never shows a kept list: going back to a query always starts from an empty cache.
        case forgetsCachedLists
        /// Keeps every page, as if there were no memory bound.
        case ignoresDrops
        /// Restores a list that reached its end as one that did not (the session restores it so).
        case restoresWithoutTheEnd
        /// Moves a far preload to the nearest loaded row instead of jumping to its page.
        case neverJumps
    }

    /// What the server sent for a request.
    enum Reply: Equatable {
        /// A page (its first value; whatever followed it does not count).
        case page(items: [Int], total: Int, next: Int?, previous: Int?)
        /// An error, or completion without a page.
        case failure
    }

    /// Where a load goes.
    enum Direction: Hashable {
        case refresh, prepend, append
    }

    /// A load the paginator must have in flight.
    struct Load: Equatable {
        /// The index of its request among every request of the session.
        let serial: Int
        let key: Int
        let query: Int
        let direction: Direction
        /// For a refresh of several pages, the position of the page in the chain (0 for the first).
        let step: Int
    }

    /// A direction's load: none, one in flight, or the load that failed (what `retry()` asks again).
    enum Slot: Equatable {
        case idle
        case loading(Load)
        case failed(Load)
    }

    /// A refresh of several pages in progress: the pages loaded so far, from the opening page down
    /// (`below`) and then up (`above`, the nearest first), and how many to load each way.
    struct Chain: Equatable {
        typealias Loaded = (key: Int, items: [Int], next: Int?, previous: Int?)
        var below: [Loaded] = []
        var above: [Loaded] = []
        let targetBelow: Int
        let targetAbove: Int

        /// The pages in list order.
        var pages: [Loaded] { above.reversed() + below }

        static func == (lhs: Chain, rhs: Chain) -> Bool {
            lhs.targetBelow == rhs.targetBelow && lhs.targetAbove == rhs.targetAbove
                && lhs.pages.map(\.key) == rhs.pages.map(\.key)
        }
    }

    let configuration: ModelConfiguration
    let mutation: Mutation?
    /// How many requests the session had made before this paginator was created.
    let firstSerial: Int

    /// The query of the current generation (the latest refresh's, even after it failed).
    var query = 0
    var items: [Int] = []
    /// The query of the list shown: its edges page with it, even after a refresh failed.
    var itemsQuery = 0
    /// The key and row count of each shown page, in order.
    var pageKeys: [Int] = []
    var pageRows: [Int] = []
    var total: Int?
    var hasList = false
    var listWasEmpty = false
    var nextKey: Int?
    var previousKey: Int?
    /// The keys used by the shown list: a key further on among them is a repeated key.
    var usedKeys: Set<Int> = []
    /// The identities the shown list has had (kept, inserted, or removed since), when deduplicating.
    var seen: Set<Int> = []
    var refreshSlot = Slot.idle
    var prependSlot = Slot.idle
    var appendSlot = Slot.idle
    var slotBeforeRefresh = Slot.idle
    var queryBeforeRefresh = 0
    var chain: Chain?
    var secondPageRequested = false
    /// Rows prepended since the list's first page, and how many lists were committed.
    var leadingCount = 0
    var listSerial: UInt64 = 0
    /// How many loads this paginator must have started.
    var loadsStarted = 0
    /// How many rows the session inserted (each gets a new value).
    var inserted = 0
    /// Every identity ever loaded (for the `keepsIdentitiesAcrossRefresh` mutation only).
    var everLoaded: Set<Int> = []
    /// With policies: the clock, in seconds, its timers, and the automatic retry state.
    var now = 0
    var timers: [ScheduledTimer] = []
    var timerOrder = 0
    var failureCount = 0
    var scheduledRetry: (direction: Direction, failure: Int)?
    var retries: [Direction: Int] = [:]
    /// With policies: the kept lists of earlier queries, least recently shown first.
    var cache: [(query: Int, list: ShownList)] = []
    /// With a memory bound: the dropped pages and the row last shown.
    var bounds = BoundState()
    /// The rows removed (by edits or a bound) and the values replaced (old to new) since the screen last
    /// showed the reference's list: what an index of a lagging screen may no longer name.
    var removedSinceShown: Set<Int> = []
    var replacedSinceShown: [Int: Int] = [:]
    /// How often this paginator dropped, reloaded and jumped (for the coverage test).
    var boundEvents = BoundEvents()

    init(configuration: ModelConfiguration, firstSerial: Int, mutation: Mutation? = nil) {
        self.configuration = configuration
        self.firstSerial = firstSerial
        self.mutation = mutation
    }

    /// The key the list opens at.
    var openingKey: Int { configuration.opensMidway ? 10 : 0 }

    /// The items of `query` from `position`, `count` at most.
    static func dataset(_ query: Int, from position: Int, count: Int) -> [Int] {
        let size = sizes[query]
        guard position < size, count > 0 else { return [] }
        return Array(position..<min(position + count, size)).map { query * 1_000 + $0 }
    }

    // MARK: Derived views

    /// The seven-state view: a refresh in flight or failed comes first, then the edges' loads.
    var state: String {
        if case .loading = refreshSlot { return "refreshing" }
        if case .failed = refreshSlot { return "errorRefreshing" }
        guard hasList else { return "uninitialized" }
        if case .loading = appendSlot { return "loadingMore" }
        if case .loading = prependSlot { return "loadingMore" }
        if case .failed = appendSlot { return "errorLoadingMore" }
        if case .failed = prependSlot { return "errorLoadingMore" }
        return listWasEmpty ? "noData" : "data"
    }

    var isEndReached: Bool { hasList && nextKey == nil }

    /// The load states as `refresh/prepend/append`, each `idle`, `end`, `loading` or `failed`.
    var loadStates: String {
        func describe(_ slot: Slot, end: Bool) -> String {
            switch slot {
            case .idle: end ? "end" : "idle"
            case .loading: "loading"
            case .failed: "failed"
            }
        }
        return [
            describe(refreshSlot, end: false), describe(prependSlot, end: hasList && previousKey == nil),
            describe(appendSlot, end: hasList && nextKey == nil),
        ].joined(separator: "/")
    }

    /// The loads in flight.
    var pending: [Load] {
        [refreshSlot, prependSlot, appendSlot].compactMap { slot in
            if case .loading(let load) = slot { return load }
            return nil
        }
    }

    // MARK: Calls

    mutating func load(
        key: Int, query: Int, direction: Direction, step: Int = 0
    ) -> Load {
        defer { loadsStarted += 1 }
        if configuration.usesPolicies {
            schedule(.timeout(serial: firstSerial + loadsStarted), after: Self.loadTimeout)
        }
        return Load(serial: firstSerial + loadsStarted, key: key, query: query, direction: direction, step: step)
    }

    private func isFailed(_ slot: Slot) -> Bool {
        if case .failed = slot { return true }
        return false
    }

    private var edgesMayLoad: Bool {
        guard hasList else { return false }
        if case .loading = refreshSlot { return false }
        return true
    }

    mutating func refresh(
        query newQuery: Int?, reloadAll: Bool = false, aroundRow: Int? = nil, startingAt start: Int? = nil
    ) {
        let fromCache = newQuery.map { switchCachedList(to: $0) } ?? false
        var key = start ?? openingKey
        var plan: Chain?
        if reloadAll, hasList, !pageKeys.isEmpty {
            // From the page the list was opened at (the shown page nearest to it, once dropped), down,
            // then up.
            let opening = min(max(bounds.pagesAboveOpening, 0), pageKeys.count - 1)
            key = pageKeys[opening]
            plan = Chain(targetBelow: pageKeys.count - opening, targetAbove: opening)
        }
        if let row = aroundRow, hasList, !items.isEmpty {
            guard row >= 0, row < items.count else { return }
            var page = 0
            var before = 0
            while before + pageRows[page] <= row {
                before += pageRows[page]
                page += 1
            }
            key = pageKeys[page]
        }
        scheduledRetry = nil
        if case .loading = refreshSlot {
        } else {
            rememberBeforeRefresh()
        }
        prependSlot = .idle
        appendSlot = .idle
        if let newQuery { query = newQuery }
        chain = plan
        retries[.refresh] = 0
        refreshSlot = .loading(load(key: key, query: query, direction: .refresh))
        if fromCache {
            // The switch to the kept list stands: cancelling its revalidation keeps it and its query.
            rememberBeforeRefresh()
            slotBeforeRefresh = .idle
        }
    }

    mutating func loadNext() {
        guard edgesMayLoad, appendSlot == .idle, let key = nextKey else { return }
        appendSlot = .loading(load(key: key, query: itemsQuery, direction: .append))
        secondPageRequested = true
    }

    mutating func loadPrevious() {
        guard edgesMayLoad, prependSlot == .idle, let key = previousKey else { return }
        prependSlot = .loading(load(key: key, query: itemsQuery, direction: .prepend))
    }

    /// A preload of `row` of the snapshot the user interface shows (`seenLeading` rows prepended, of list
    /// `seenSerial`): moved by the rows prepended since, then checked against both ends. With placeholders
    /// shown, `row` is a slot instead (see ``row(ofSlot:)``).
    mutating func preload(row: Int, seenLeading: Int, seenSerial: UInt64) {
        var row = row
        if showsPlaceholders {
            guard let shown = self.row(ofSlot: row) else { return }
            row = shown
        } else {
            // A negative row is never a displayed row, whatever was prepended since.
            guard row >= 0 else { return }
            if seenSerial == listSerial { row += leadingCount - seenLeading }
            guard row >= 0, row < items.count else { return }
        }
        row -= recordShown(row: row)
        if row <= Self.prefetchDistance { loadPrevious() }
        if row >= items.count - 1 - Self.prefetchDistance { loadNext() }
    }

    mutating func retry() {
        scheduledRetry = nil
        retries = [:]
        switch refreshSlot {
        case .failed(let failed):
            slotBeforeRefresh = refreshSlot
            queryBeforeRefresh = query
            prependSlot = .idle
            appendSlot = .idle
            refreshSlot = .loading(load(key: failed.key, query: failed.query, direction: .refresh, step: failed.step))
        case .loading:
            break
        case .idle:
            var started = false
            if case .failed(let failed) = prependSlot {
                prependSlot = .loading(load(key: failed.key, query: failed.query, direction: .prepend))
                started = true
            }
            if case .failed(let failed) = appendSlot {
                appendSlot = .loading(load(key: failed.key, query: failed.query, direction: .append))
                started = true
            }
            if !started, hasList, listWasEmpty, items.isEmpty { refresh(query: nil) }
        }
    }

    mutating func cancel() {
        scheduledRetry = nil
        if case .loading = refreshSlot {
            refreshSlot = slotBeforeRefresh
            query = queryBeforeRefresh
            chain = nil
            return
        }
        if case .loading = prependSlot { prependSlot = .idle }
        if case .loading = appendSlot { appendSlot = .idle }
    }

    /// What a local edit at `row` of the screen's snapshot does: applied (with the value the session must
    /// insert or put, `nil` for a removal), nothing (no list, a row out of range or gone), or `nil` when
    /// the reference cannot tell (the row was removed and came back while the screen lagged).
    enum EditPrediction: Equatable {
        case applies(value: Int?)
        case changesNothing
    }

    /// The screen caught up with the reference: every row it shows is the reference's.
    mutating func screenCaughtUp() {
        removedSinceShown = []
        replacedSinceShown = [:]
    }

    /// A local edit of row `row` of the snapshot the screen shows (`shown`: its rows and list serial),
    /// applied to that row where it is now (the contract's index rule): an insertion goes before the row
    /// that was at `row` there (after the last row at the end); a row removed since is gone; across a
    /// list replaced since, the row is found by its value when deduplicating, else it is gone.
    mutating func edit(_ kind: PagingOperation.EditKind, row: Int, shown: (items: [Int], listSerial: UInt64))
        -> EditPrediction?
    {
        guard hasList, !pageKeys.isEmpty else { return .changesNothing }
        let count = shown.items.count
        let insertion = kind == .insert
        guard row < count || (insertion && row == count) else { return .changesNothing }
        var target = row
        let screenIsCurrent =
            shown.listSerial == listSerial && shown.items == items && removedSinceShown.isEmpty
            && replacedSinceShown.isEmpty
        if count > 0, !screenIsCurrent {
            let after = row == count
            var anchor = shown.items[after ? count - 1 : row]
            // A value shown twice (overlapping pages with no deduplication) does not say which row it is.
            if shown.items.lazy.filter({ $0 == anchor }).count > 1 { return nil }
            if shown.listSerial == listSerial {
                while let newer = replacedSinceShown[anchor] { anchor = newer }
                if items.lazy.filter({ $0 == anchor }).count > 1 { return nil }
                let index = items.firstIndex(of: anchor)
                if removedSinceShown.contains(anchor) { return index == nil ? .changesNothing : nil }
                guard let index else { return .changesNothing }
                target = after ? index + 1 : index
            } else {
                guard configuration.deduplicates, let index = items.firstIndex(of: anchor) else {
                    return .changesNothing
                }
                target = after ? index + 1 : index
            }
        } else if count == 0 {
            target = 0
        }
        let (applies, value) = edit(kind, row: target)
        return applies ? .applies(value: value) : .changesNothing
    }

    /// A local edit at `row` of the reference's own list: returns the value the session must insert or
    /// put, or `nil` for a removal or when nothing changes (no list, or a row out of range).
    mutating func edit(_ kind: PagingOperation.EditKind, row: Int) -> (applies: Bool, value: Int?) {
        guard hasList, !pageKeys.isEmpty else { return (false, nil) }
        // A value the list has not had: a row the server may still send (so a later page meets the local
        // copy), or past the list's end.
        let position = (0..<Self.sizes[itemsQuery]).first {
            !seen.contains(itemsQuery * 1_000 + $0) && !items.contains(itemsQuery * 1_000 + $0)
        }
        let value = itemsQuery * 1_000 + (configuration.deduplicates ? position ?? 500 + inserted : 500 + inserted)
        switch kind {
        case .insert:
            guard row <= items.count else { return (false, nil) }
            inserted += 1
            items.insert(value, at: row)
            pageRows[page(holding: row, insertion: true)] += 1
            if configuration.deduplicates { seen.insert(value) }
            return (true, value)
        case .remove:
            guard row < items.count else { return (false, nil) }
            pageRows[page(holding: row, insertion: false)] -= 1
            removedSinceShown.insert(items.remove(at: row))
            return (true, nil)
        case .replace:
            guard row < items.count else { return (false, nil) }
            inserted += 1
            replacedSinceShown[items[row]] = value
            items[row] = value
            if configuration.deduplicates { seen.insert(value) }
            return (true, value)
        }
    }

    /// The page that holds `row` (for an insertion at the end, the last page).
    private func page(holding row: Int, insertion: Bool) -> Int {
        var before = 0
        for (page, rows) in pageRows.enumerated() {
            if row < before + rows { return page }
            before += rows
        }
        return pageRows.count - 1
    }
}
