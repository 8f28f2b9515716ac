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
    struct Load {
        /// The index of its request among every request of the session.
        let serial: Int
        let key: Int
        let query: Int
        let isFirstPage: Bool
    }

    /// Where a list with data stood when a refresh left it: a cancelled refresh resumes from there.
    struct Position {
        let nextKey: Int
        let isEndReached: Bool
        let usedKeys: Set<Int>
    }

    let configuration: ModelConfiguration
    let mutation: Mutation?
    /// How many requests the session had made before this paginator was created.
    let firstSerial: Int

    var state = "uninitialized"
    var query = 0
    var items: [Int] = []
    /// The query whose first page the items come from: a refresh keeps the old items until its own
    /// first page arrives.
    var itemsQuery = 0
    var pages = 0
    var total: Int?
    var nextKey = 0
    var isEndReached = false
    /// The keys used in this generation: a next key among them is a repeated key.
    var usedKeys: Set<Int> = []
    var failedKey = 0
    var beforeRefresh = "uninitialized"
    var queryBeforeRefresh = 0
    var positionBeforeRefresh: Position?
    var pending: Load?
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

    var hasData: Bool { ["data", "loadingMore", "errorLoadingMore"].contains(state) }

    private mutating func start(key: Int, firstPage: Bool) {
        pending = Load(serial: firstSerial + loadsStarted, key: key, query: query, isFirstPage: firstPage)
        loadsStarted += 1
        if firstPage { usedKeys.insert(key) }
        state = firstPage ? "refreshing" : "loadingMore"
    }

    mutating func refresh(query newQuery: Int?) {
        if state != "refreshing" {
            beforeRefresh = state
            queryBeforeRefresh = query
            if hasData {
                positionBeforeRefresh = Position(nextKey: nextKey, isEndReached: isEndReached, usedKeys: usedKeys)
            }
        }
        if let newQuery { query = newQuery }
        usedKeys = []
        start(key: 0, firstPage: true)
    }

    mutating func loadNext() {
        guard state == "data", !isEndReached, pending == nil else { return }
        start(key: nextKey, firstPage: false)
    }

    mutating func preload(row: Int) {
        guard row >= 0, row < items.count, row >= items.count - 1 - Self.prefetchDistance else { return }
        loadNext()
    }

    mutating func retry() {
        switch state {
        case "errorLoadingMore": start(key: failedKey, firstPage: false)
        case "errorRefreshing": start(key: 0, firstPage: true)
        case "noData": refresh(query: nil)
        default: break
        }
    }

    mutating func cancel() {
        guard pending != nil else { return }
        pending = nil
        if state == "loadingMore" {
            state = "data"
            return
        }
        query = queryBeforeRefresh
        if ["data", "loadingMore", "errorLoadingMore"].contains(beforeRefresh) {
            if let position = positionBeforeRefresh {
                nextKey = position.nextKey
                isEndReached = position.isEndReached
                usedKeys = position.usedKeys
            }
            state = "data"
        } else {
            state = beforeRefresh
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
        pending = nil
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
        if !ends, let nextKey, usedKeys.contains(nextKey) {
            return fail(load)
        }
        let kept = keep(pageItems, firstPage: load.isFirstPage)
        if load.isFirstPage {
            items = kept
            itemsQuery = load.query
            pages = 1
            positionBeforeRefresh = nil
            state = pageItems.isEmpty ? "noData" : "data"
        } else {
            items += kept
            pages += 1
            state = "data"
        }
        if !ends, let nextKey {
            usedKeys.insert(nextKey)
            self.nextKey = nextKey
        }
        isEndReached = ends
        total = configuration.model == .offset ? pageTotal : nil
    }

    private mutating func fail(_ load: Load) {
        if load.isFirstPage {
            state = "errorRefreshing"
        } else {
            state = "errorLoadingMore"
            failedKey = load.key
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
