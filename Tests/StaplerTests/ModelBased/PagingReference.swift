/// The reference model: what a paginator must show after each operation, written as plainly as possible
/// from the documented contract (DESIGN.md and the `Paginator` documentation), not from the engine's code.
///
/// Keys are plain integers for both page models: an offset, or the position a cursor points at (the
/// first cursor, `nil`, is 0).
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
    }

    /// What the server sent for a request.
    enum Reply: Equatable {
        /// A page (its first value; whatever followed it does not count).
        case page(items: [Int], total: Int, next: Int?)
        /// An error, or completion without a page.
        case failure
    }

    /// A load the paginator must have in flight.
    struct Load: Equatable {
        /// The index of its request among every request of the session.
        let serial: Int
        let key: Int
        let query: Int
        let isFirstPage: Bool
    }

    /// A direction's load: none, one in flight, or the key that failed.
    enum Slot: Equatable {
        case idle
        case loading(Load)
        case failed(key: Int)
    }

    let configuration: ModelConfiguration
    let mutation: Mutation?
    /// How many requests the session had made before this paginator was created.
    let firstSerial: Int

    /// The query of the current generation (the latest refresh's, even after it failed).
    var query = 0
    var items: [Int] = []
    /// The query of the list shown: a refresh keeps the old list until its own first page arrives, and
    /// the list's bottom keeps paging with this query if the refresh fails.
    var itemsQuery = 0
    var pages = 0
    var total: Int?
    /// Whether a first page was applied (a list, maybe empty, is shown).
    var hasList = false
    /// Whether the shown list's first page was empty.
    var listWasEmpty = false
    var nextKey = 0
    var bottomReached = false
    /// The keys used by the shown list: a next key among them is a repeated key.
    var usedKeys: Set<Int> = []
    var refreshSlot = Slot.idle
    var appendSlot = Slot.idle
    var slotBeforeRefresh = Slot.idle
    var queryBeforeRefresh = 0
    /// How many loads this paginator must have started.
    var loadsStarted = 0
    /// Every identity ever loaded (for the `keepsIdentitiesAcrossRefresh` mutation only).
    var everLoaded: Set<Int> = []

    init(configuration: ModelConfiguration, firstSerial: Int, mutation: Mutation? = nil) {
        self.configuration = configuration
        self.firstSerial = firstSerial
        self.mutation = mutation
    }

    /// The items of `query` from `position`, `count` at most.
    static func dataset(_ query: Int, from position: Int, count: Int) -> [Int] {
        let size = sizes[query]
        guard position < size else { return [] }
        return Array(position..<min(position + count, size)).map { query * 1_000 + $0 }
    }

    /// The seven-state view: a refresh in flight or failed comes first, then the bottom's load.
    var state: String {
        if case .loading = refreshSlot { return "refreshing" }
        if case .failed = refreshSlot { return "errorRefreshing" }
        guard hasList else { return "uninitialized" }
        if case .loading = appendSlot { return "loadingMore" }
        if case .failed = appendSlot { return "errorLoadingMore" }
        return listWasEmpty ? "noData" : "data"
    }

    var isEndReached: Bool { hasList && bottomReached }

    /// The load in flight: a refresh runs alone, so there is at most one.
    var pending: Load? {
        if case .loading(let load) = refreshSlot { return load }
        if case .loading(let load) = appendSlot { return load }
        return nil
    }

    private mutating func load(key: Int, query: Int, firstPage: Bool) -> Load {
        defer { loadsStarted += 1 }
        return Load(serial: firstSerial + loadsStarted, key: key, query: query, isFirstPage: firstPage)
    }

    mutating func refresh(query newQuery: Int?) {
        if case .loading = refreshSlot {
        } else {
            slotBeforeRefresh = refreshSlot
            queryBeforeRefresh = query
        }
        appendSlot = .idle
        if let newQuery { query = newQuery }
        refreshSlot = .loading(load(key: 0, query: query, firstPage: true))
    }

    mutating func loadNext() {
        guard hasList, refreshSlot == .idle || isFailed(refreshSlot), appendSlot == .idle, !bottomReached else {
            return
        }
        appendSlot = .loading(load(key: nextKey, query: itemsQuery, firstPage: false))
    }

    private func isFailed(_ slot: Slot) -> Bool {
        if case .failed = slot { return true }
        return false
    }

    mutating func preload(row: Int) {
        guard row >= 0, row < items.count, row >= items.count - 1 - Self.prefetchDistance else { return }
        loadNext()
    }

    mutating func retry() {
        switch (refreshSlot, appendSlot) {
        case (.failed(let key), _):
            slotBeforeRefresh = refreshSlot
            queryBeforeRefresh = query
            appendSlot = .idle
            refreshSlot = .loading(load(key: key, query: query, firstPage: true))
        case (.idle, .failed(let key)):
            appendSlot = .loading(load(key: key, query: itemsQuery, firstPage: false))
        case (.idle, .idle) where hasList && listWasEmpty && items.isEmpty:
            refresh(query: nil)
        default:
            break
        }
    }

    mutating func cancel() {
        if case .loading = refreshSlot {
            refreshSlot = slotBeforeRefresh
            query = queryBeforeRefresh
        } else if case .loading = appendSlot {
            appendSlot = .idle
        }
    }

    /// Applies `reply` to the request with `serial` and `key`, if it is the one the paginator waits for.
    mutating func respond(serial: Int, key: Int, with reply: Reply) {
        if mutation == .appliesStaleResponses, pending?.serial != serial, key > 0,
            case .page(let pageItems, _, _) = reply
        {
            items += pageItems
            return
        }
        guard let load = pending, load.serial == serial else { return }
        if load.isFirstPage { refreshSlot = .idle } else { appendSlot = .idle }
        guard case .page(let pageItems, let pageTotal, let next) = reply else {
            return fail(load)
        }
        let nextKey: Int?
        let ends: Bool
        switch configuration.model {
        case .offset:
            guard pageTotal >= 0 else { return fail(load) }
            nextKey = load.key + pageItems.count
            ends = pageItems.isEmpty || load.key + pageItems.count >= pageTotal
        case .cursor:
            nextKey = next
            ends = pageItems.isEmpty || next == nil
        }
        let used: Set<Int> = load.isFirstPage ? [load.key] : usedKeys
        if !ends, let nextKey, used.contains(nextKey) {
            return fail(load)
        }
        let kept = keep(pageItems, firstPage: load.isFirstPage)
        if load.isFirstPage {
            items = kept
            itemsQuery = load.query
            pages = 1
            usedKeys = [load.key]
            hasList = true
            listWasEmpty = pageItems.isEmpty
        } else {
            items += kept
            pages += 1
        }
        if !ends, let nextKey {
            usedKeys.insert(nextKey)
            self.nextKey = nextKey
        }
        bottomReached = ends
        total = configuration.model == .offset ? pageTotal : nil
    }

    private mutating func fail(_ load: Load) {
        if load.isFirstPage {
            refreshSlot = .failed(key: load.key)
        } else {
            appendSlot = .failed(key: load.key)
        }
    }

    /// The items of a page that are shown: with deduplication, those not loaded yet in this generation
    /// (the list shown is exactly what was loaded), and the first of repeats within the page.
    private mutating func keep(_ pageItems: [Int], firstPage: Bool) -> [Int] {
        guard configuration.deduplicates else { return pageItems }
        var seen: Set<Int> = firstPage ? [] : Set(items)
        if mutation == .keepsIdentitiesAcrossRefresh { seen.formUnion(everLoaded) }
        let kept = pageItems.filter { seen.insert($0).inserted }
        everLoaded.formUnion(kept)
        return kept
    }
}
