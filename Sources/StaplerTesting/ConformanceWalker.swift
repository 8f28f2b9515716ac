import Stapler

/// Walks a page source from one opening key to both ends, keeping what a conformance check compares.
struct ConformanceWalker<
    Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error,
    ID: Hashable & Sendable
> {
    /// The previous key of a page met walking down, and the ids loaded before that page.
    struct Link {
        let previousKey: Key
        let pageKey: Key
        let idsBefore: [ID]
    }

    let subject: PageSourceUnderTest<Item, Key, Query, Metadata, Failure, ID>
    let timeout: Duration
    /// How many pages one walk may load in one direction before it is reported as endless.
    let maxPages = 10_000
    /// Every link met walking down, for the round-trip check.
    private(set) var links: [Link] = []

    init(subject: PageSourceUnderTest<Item, Key, Query, Metadata, Failure, ID>, timeout: Duration) {
        self.subject = subject
        self.timeout = timeout
    }

    /// Opens the list at `opening` and walks it down to its end, then up to its top; returns the ids in
    /// list order.
    mutating func walk(openingAt opening: Key) throws(ConformanceViolation) -> [ID] {
        var walk = Walk<ID>()
        let first = try load(.refresh, key: opening, index: 0)
        try walk.add(first.items.map(subject.id), at: .refresh, key: describeKey(opening))
        guard !first.items.isEmpty else { return [] }
        var bottom = first.nextKey
        var index = 1
        while let key = bottom {
            let page = try load(.append, key: key, index: index)
            if page.items.isEmpty { break }
            if let previous = page.previousKey {
                links.append(Link(previousKey: previous, pageKey: key, idsBefore: walk.ids))
            }
            try walk.add(page.items.map(subject.id), at: .append, key: describeKey(key))
            bottom = page.nextKey
            index += 1
            try checkLength(index, direction: .append, key: key)
        }
        var top = first.previousKey
        var following = opening
        index = -1
        while let key = top {
            let page = try load(.prepend, key: key, index: index, following: following)
            if page.items.isEmpty { break }
            try walk.add(page.items.map(subject.id), at: .prepend, key: describeKey(key))
            top = page.previousKey
            following = key
            index -= 1
            try checkLength(-index, direction: .prepend, key: key)
        }
        return walk.ids
    }

    /// Checks that the previous key of every page met walking down leads back to the ids just before it.
    func checkRoundTrips() throws(ConformanceViolation) {
        for link in links {
            let page = try load(.prepend, key: link.previousKey, index: -1, following: link.pageKey)
            let ids = page.items.map(subject.id)
            let expected = Array(link.idsBefore.suffix(max(1, ids.count)))
            guard ids != expected else { continue }
            let key = describeKey(link.previousKey)
            let returned = ids.map { String(describing: $0) }
            let before = expected.map { String(describing: $0) }
            throw ConformanceViolation(
                direction: .prepend, key: key, ids: returned,
                description: "the previous key \(key) of the page at key \(describeKey(link.pageKey)) leads to ids "
                    + "\(describeRun(returned)), not to the ids just before that page (\(describeRun(before)))")
        }
    }

    /// Reports a walk that loaded more pages than any list of the check can hold.
    private func checkLength(_ pages: Int, direction: PageDirection, key: Key) throws(ConformanceViolation) {
        guard pages > maxPages else { return }
        let described = describeKey(key)
        throw ConformanceViolation(
            direction: direction, key: described, ids: [],
            description: "\(direction) from key \(described): the list did not end after \(maxPages) pages")
    }

    /// Loads one page, reporting a load that fails, does not answer, or sends more than a page.
    private func load(
        _ direction: PageDirection, key: Key, index: Int, following: Key? = nil
    ) throws(ConformanceViolation) -> Page<Item, Key, Metadata> {
        let request = PageRequest(
            key: key, pageSize: subject.pageSize, query: subject.query, pageIndex: index, direction: direction,
            followingKey: following)
        let described = describeKey(key)
        switch subject.answer(to: request, timeout: timeout) {
        case .page(let page)?:
            guard page.items.count <= subject.pageSize || subject.source.ignoresPageSize else {
                throw ConformanceViolation(
                    direction: direction, key: described, ids: page.items.map { String(describing: subject.id($0)) },
                    description: "\(direction) from key \(described) returned \(page.items.count) items, more than "
                        + "the page size \(subject.pageSize)")
            }
            return page
        case .failed(let reason)?:
            throw ConformanceViolation(
                direction: direction, key: described, ids: [],
                description: "\(direction) from key \(described) \(reason)")
        case nil:
            let wait = subject.scheduler == nil ? "within \(timeout)" : "when its scheduler ran out of work"
            throw ConformanceViolation(
                direction: direction, key: described, ids: [],
                description: "\(direction) from key \(described) was not answered \(wait)")
        }
    }
}

/// The ids one walk loaded, in list order, with the key each was loaded from.
struct Walk<ID: Hashable> {
    private(set) var ids: [ID] = []
    private var origins: [ID: String] = [:]

    /// Adds a page's ids at the end (refresh, append) or the front (prepend), reporting any id already
    /// loaded (or repeated within the page).
    mutating func add(_ page: [ID], at direction: PageDirection, key: String) throws(ConformanceViolation) {
        var repeated: [ID] = []
        var firstOrigin: String?
        for id in page {
            if let origin = origins[id] {
                repeated.append(id)
                firstOrigin = firstOrigin ?? origin
            } else {
                origins[id] = key
            }
        }
        if let firstOrigin {
            let described = repeated.map { String(describing: $0) }
            throw ConformanceViolation(
                direction: direction, key: key, ids: described,
                description: "\(direction) from key \(key) returned ids \(describeRun(described)), already loaded "
                    + "from key \(firstOrigin)")
        }
        if direction == .prepend { ids.insert(contentsOf: page, at: 0) } else { ids.append(contentsOf: page) }
    }
}
