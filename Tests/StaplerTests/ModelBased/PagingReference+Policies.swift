/// The policies of a session that uses them, as the contract states them (clauses 7.3, 7.6 and 7.9): a
/// load timeout, automatic retries with a backoff of 1 s then 2 s, and a cache of two earlier queries'
/// lists, all on a clock that only ``advance(seconds:)`` moves.
extension PagingReference {
    static let loadTimeout = 5
    static let maxRetries = 2
    static let cacheCapacity = 2

    /// A timer on the policy's clock.
    enum Timer: Equatable {
        /// The timeout of the load with this serial.
        case timeout(serial: Int)
        /// The automatic retry of `direction`'s failure number `failure`.
        case retry(Direction, failure: Int)
    }

    /// A timer, due at `due` seconds; timers due together fire in the order they were set.
    struct ScheduledTimer: Equatable {
        let due: Int
        let order: Int
        let timer: Timer
    }

    /// What the cache keeps of a list: everything that shows it and pages it on.
    struct ShownList {
        let items: [Int]
        let itemsQuery: Int
        let pageKeys: [Int]
        let pageRows: [Int]
        let total: Int?
        let listWasEmpty: Bool
        let nextKey: Int?
        let previousKey: Int?
        let usedKeys: Set<Int>
        let seen: Set<Int>
        let leadingCount: Int
        let bounds: BoundState
    }

    mutating func schedule(_ timer: Timer, after seconds: Int) {
        timers.append(ScheduledTimer(due: now + seconds, order: timerOrder, timer: timer))
        timerOrder += 1
    }

    /// Moves the clock on by `seconds`, firing every timer due on the way, in order.
    mutating func advance(seconds: Int) {
        let target = now + seconds
        while let next = timers.filter({ $0.due <= target }).min(by: { ($0.due, $0.order) < ($1.due, $1.order) }) {
            timers.removeAll { $0 == next }
            now = next.due
            switch next.timer {
            case .timeout(let serial):
                guard mutation != .ignoresLoadTimeouts, let load = pending.first(where: { $0.serial == serial }) else {
                    continue
                }
                setSlot(load.direction, .idle)
                fail(load, retryable: true)
            case .retry(let direction, let failure):
                retryAutomatically(direction, failure: failure)
            }
        }
        now = target
    }

    /// After a failure of `direction`: schedules its automatic retry if the error is retryable and
    /// retries are left (one retry waits at a time: the latest failure's).
    mutating func scheduleRetry(after direction: Direction, retryable: Bool) {
        failureCount += 1
        guard configuration.usesPolicies, retryable else { return }
        let attempt = retries[direction] ?? 0
        guard attempt < Self.maxRetries else { return }
        scheduledRetry = (direction, failureCount)
        schedule(.retry(direction, failure: failureCount), after: 1 << attempt)
    }

    private mutating func retryAutomatically(_ direction: Direction, failure: Int) {
        guard let scheduled = scheduledRetry, scheduled.direction == direction, scheduled.failure == failure,
            case .failed(let failed) = slot(direction)
        else { return }
        scheduledRetry = nil
        retries[direction, default: 0] += 1
        if direction == .refresh {
            prependSlot = .idle
            appendSlot = .idle
            rememberBeforeRefresh()
        } else if case .loading = refreshSlot {
            return
        }
        setSlot(
            direction, .loading(load(key: failed.key, query: failed.query, direction: direction, step: failed.step)))
    }

    /// What `cancel()` of a refresh about to start goes back to.
    mutating func rememberBeforeRefresh() {
        slotBeforeRefresh = refreshSlot
        queryBeforeRefresh = query
    }

    func slot(_ direction: Direction) -> Slot {
        switch direction {
        case .refresh: refreshSlot
        case .prepend: prependSlot
        case .append: appendSlot
        }
    }

    /// A switch to `newQuery` with the cache on: the list shown is kept under its own query, and a kept
    /// list of `newQuery` is shown at once. Returns whether it came from the cache.
    mutating func switchCachedList(to newQuery: Int) -> Bool {
        guard configuration.usesPolicies, newQuery != itemsQuery || !hasList else { return false }
        if hasList {
            cache.removeAll { $0.query == itemsQuery }
            cache.append((itemsQuery, shownList))
        }
        var fromCache = false
        if mutation != .forgetsCachedLists, let index = cache.firstIndex(where: { $0.query == newQuery }) {
            show(cache.remove(at: index).list)
            fromCache = true
        }
        if cache.count > Self.cacheCapacity { cache.removeFirst(cache.count - Self.cacheCapacity) }
        return fromCache
    }

    private var shownList: ShownList {
        ShownList(
            items: items, itemsQuery: itemsQuery, pageKeys: pageKeys, pageRows: pageRows, total: total,
            listWasEmpty: listWasEmpty, nextKey: nextKey, previousKey: previousKey, usedKeys: usedKeys, seen: seen,
            leadingCount: leadingCount, bounds: bounds)
    }

    private mutating func show(_ list: ShownList) {
        items = list.items
        itemsQuery = list.itemsQuery
        pageKeys = list.pageKeys
        pageRows = list.pageRows
        total = list.total
        listWasEmpty = list.listWasEmpty
        nextKey = list.nextKey
        previousKey = list.previousKey
        usedKeys = list.usedKeys
        seen = list.seen
        leadingCount = list.leadingCount
        bounds = list.bounds
        listSerial &+= 1
        hasList = true
        screenCaughtUp()
    }
}
