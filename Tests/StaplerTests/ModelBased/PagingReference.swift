/// The reference model: what a paginator must show after each operation, written as plainly as possible.
struct PagingReference {
    static let pageSize = 5
    static let prefetchDistance = 2
    static let sizes = [23, 7, 0]

    var state = "uninitialized"
    var query = 0
    var items: [Int] = []
    /// The query whose first page the items come from: a refresh keeps the old items until its own
    /// first page arrives.
    var itemsQuery = 0
    var nextOffset = 0
    var isEndReached = false
    var failedKey = 0
    var beforeRefresh = "uninitialized"
    /// Where a list with data stood when a refresh left it: a cancelled refresh resumes from there.
    var positionBeforeRefresh: (nextOffset: Int, isEndReached: Bool)?
    /// The query a refresh left: a cancelled refresh restores it.
    var queryBeforeRefresh = 0
    /// The request the paginator waits for: its index among all requests, its key, and whether it is a
    /// first page.
    var pending: (index: Int, key: Int, first: Bool)?
    /// A deliberately wrong reference that applies a late response of a superseded load (the bug of
    /// the original Stapler), used to prove that the harness notices a difference.
    var appliesStaleResponses = false

    /// The items of `query` from `offset`, `count` at most.
    static func dataset(_ query: Int, from offset: Int, count: Int) -> [Int] {
        let size = sizes[query]
        guard offset < size else { return [] }
        return Array(offset..<min(offset + count, size)).map { query * 1_000 + $0 }
    }

    /// Starts a load and returns its expected key, after `requestCount` earlier requests.
    private mutating func start(key: Int, first: Bool, requestCount: Int) {
        pending = (requestCount, key, first)
        state = first ? "refreshing" : "loadingMore"
    }

    mutating func refresh(query newQuery: Int?, requestCount: Int) {
        if state != "refreshing" {
            beforeRefresh = state
            queryBeforeRefresh = query
        }
        if ["data", "loadingMore", "errorLoadingMore"].contains(state) {
            positionBeforeRefresh = (nextOffset, isEndReached)
        }
        if let newQuery { query = newQuery }
        start(key: 0, first: true, requestCount: requestCount)
    }

    mutating func loadNext(requestCount: Int) {
        guard state == "data", !isEndReached, pending == nil else { return }
        start(key: nextOffset, first: false, requestCount: requestCount)
    }

    mutating func preload(row: Int, requestCount: Int) {
        guard row >= 0, row < items.count, row >= items.count - 1 - Self.prefetchDistance else { return }
        loadNext(requestCount: requestCount)
    }

    mutating func retry(requestCount: Int) {
        switch state {
        case "errorLoadingMore": start(key: failedKey, first: false, requestCount: requestCount)
        case "errorRefreshing": start(key: 0, first: true, requestCount: requestCount)
        case "noData": refresh(query: nil, requestCount: requestCount)
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
        switch beforeRefresh {
        case "data", "loadingMore", "errorLoadingMore":
            if let position = positionBeforeRefresh {
                (nextOffset, isEndReached) = position
            }
            state = "data"
        default:
            state = beforeRefresh
        }
    }

    /// Applies `answer` to request `index` with `key`, if it is the one the paginator waits for.
    mutating func respond(toRequest index: Int, key: Int, with answer: PagingOperation.Answer) {
        if appliesStaleResponses, pending?.index != index, answer == .page, key > 0 {
            items += Self.dataset(query, from: key, count: Self.pageSize)
            return
        }
        guard let pending, pending.index == index else { return }
        self.pending = nil
        let size = Self.sizes[query]
        let pageItems: [Int]
        switch answer {
        case .page, .twoPages, .pageThenFailure: pageItems = Self.dataset(query, from: key, count: Self.pageSize)
        case .shortPage: pageItems = Self.dataset(query, from: key, count: Self.pageSize - 2)
        case .emptyPage: pageItems = []
        case .failure, .noPage, .negativeTotal:
            if pending.first {
                state = "errorRefreshing"
            } else {
                state = "errorLoadingMore"
                failedKey = key
            }
            return
        }
        if pending.first {
            items = pageItems
            itemsQuery = query
            state = pageItems.isEmpty ? "noData" : "data"
        } else {
            items += pageItems
            state = "data"
        }
        nextOffset = key + pageItems.count
        isEndReached = pageItems.isEmpty || nextOffset >= size
    }
}
