import Dispatch
import Reactive
import TestSupport

@testable import Stapler

extension PagingSession {
    /// The policy of a session that uses policies, on `clock`: the reference's timeout and retries.
    static func policy(on clock: TestScheduler?) -> PagingPolicy {
        guard let clock else { return .default }
        let retry = AutoRetry(
            maxRetries: PagingReference.maxRetries, base: .seconds(1), factor: 2, maxDelay: .seconds(30), jitter: 0)
        return PagingPolicy(loadTimeout: .seconds(PagingReference.loadTimeout), autoRetry: retry, clock: clock)
    }

    /// An offset source whose requests are recorded in `requests`.
    static func offsetSource(recordingIn requests: Locked<[Request]>) -> PageSource<
        Int, Int, Int, Response, ServerError
    > {
        .offset { offset, size, query in
            Self.recordedRequest(in: requests, key: offset, query: query, size: size) { items, total, _, _ in
                Response(items: items, total: total)
            }
        }
    }

    /// A cursor source whose requests are recorded in `requests`: cursor `cN` is position N.
    static func cursorSource(recordingIn requests: Locked<[Request]>) -> PageSource<
        Int, String?, Int, CursorReply, ServerError
    > {
        .cursor { cursor, size, query in
            let key = cursor.map { Int($0.dropFirst())! } ?? 0
            return Self.recordedRequest(in: requests, key: key, query: query, size: size) {
                items, _, next, previous in
                CursorReply(
                    items: items, nextCursor: next.map { "c\($0)" }, previousCursor: previous.map { "c\($0)" })
            }
        }
    }

    func makeOffsetSubject(deliveringOn scheduler: TestScheduler?, clock: TestScheduler?) -> Subject {
        let source = Self.offsetSource(recordingIn: requests)
        let paginator = makePaginator(
            source, initialKey: configuration.opensMidway ? 10 : nil, deliveringOn: scheduler, clock: clock)
        return subject(for: paginator, key: { $0 })
    }

    func makeCursorSubject(deliveringOn scheduler: TestScheduler?, clock: TestScheduler?) -> Subject {
        let source = Self.cursorSource(recordingIn: requests)
        let paginator = makePaginator(
            source, initialKey: configuration.opensMidway ? "c10" : nil, deliveringOn: scheduler, clock: clock)
        return subject(for: paginator, key: { $0 == 0 ? nil : "c\($0)" })
    }

    /// A paginator over `source` as the configuration sets it up: with a clock, the policy and the query
    /// cache the reference models, and the memory bound, placeholders and jump threshold.
    private func makePaginator<Key, Metadata>(
        _ source: PageSource<Int, Key, Int, Metadata, ServerError>, initialKey: Key?,
        deliveringOn scheduler: TestScheduler?, clock: TestScheduler?
    ) -> Paginator<Int, Key, Int, Metadata, ServerError> {
        let deduplication: Deduplication<Int>? = configuration.deduplicates ? .by(\.self) : nil
        let maxPages = configuration.bounded ? PagingReference.maxPages : nil
        var options = PagingOptions<Int, Key>(
            pageSize: PagingReference.pageSize, prefetchDistance: PagingReference.prefetchDistance,
            deduplication: deduplication, deliveringOn: scheduler, maxPages: maxPages,
            placeholders: configuration.placeholderOption)
        if let clock {
            options.policy = Self.policy(on: clock)
            options.queryCache = .last(PagingReference.cacheCapacity)
        }
        return Paginator(source: source, query: 0, initialKey: initialKey, options: options)
    }

    /// A load whose every run is recorded in `requests`, for the session to answer; `page` makes the
    /// response of the page model from the items, the total and the next position.
    static func recordedRequest<Value>(
        in requests: Locked<[Request]>, key: Int, query: Int, size: Int,
        page: @escaping @Sendable ([Int], Int, Int?, Int?) -> Value
    ) -> SignalProducer<Value, ServerError> {
        SignalProducer { observer, lifetime in
            let request = requests.withLock { all in
                let request = Request(
                    serial: all.count, key: key, query: query, size: size, observer: observer, page: page)
                all.append(request)
                return request
            }
            lifetime.observeEnded { request.ended.value = true }
        }
    }

    /// The subject of `paginator`; its notifications fire `stateHook` and `itemsHook` (by default the
    /// session's own hooks). A `restored` paginator that delivers on a scheduler shows its list when the
    /// scheduler runs: its first state may go from `uninitialized` straight to the list's.
    func subject<Key, Metadata>(
        for paginator: Paginator<Int, Key, Int, Metadata, ServerError>, key: @escaping @Sendable (Int) -> Key,
        stateHook: (@Sendable () -> Void)? = nil, itemsHook: (@Sendable () -> Void)? = nil, restored: Bool = false
    ) -> Subject {
        // The observers capture the hooks and the failure log, never the paginator or the session.
        let initial = paginator.state.value.name
        let previous = Locked(restored && initial == "uninitialized" ? "restoring" : initial)
        let stateHook = stateHook ?? { [stateHook = self.stateHook] in Self.fire(stateHook) }
        let itemsHook = itemsHook ?? { [itemsHook = self.itemsHook] in Self.fire(itemsHook) }
        paginator.state.signal.observeValues { [observedFailures] state in
            let from = previous.withLock { value in
                defer { value = state.name }
                return value
            }
            if !Self.isAllowed(from, state.name) {
                observedFailures.append("illegal transition \(from) -> \(state.name)")
            }
            stateHook()
        }
        paginator.updates.observeValues { _ in itemsHook() }
        if configuration.placeholders { followSlots(of: paginator) }
        if !restored {
            let transformed = TransformCheck(paginator)
            transformCheck.value = { [weak paginator] in paginator.flatMap { transformed.failure($0) } }
        }
        return Subject(
            object: paginator,
            refresh: { query in
                if let query { paginator.refresh(query: query) } else { paginator.refresh() }
            },
            refreshInMode: { mode in
                switch mode {
                case .reloadAll: paginator.refresh(.reloadAll)
                case .around(let index, let minimum): paginator.refresh(.around(index: index, minimumCount: minimum))
                case .open(let at): paginator.refresh(.open(at: key(at)))
                case .restart: paginator.refresh(.restart)
                case .firstPage(let catchUp): paginator.refresh(.firstPage(catchUp: catchUp))
                case .reloadAllInParallel(let max): paginator.refresh(.reloadAllInParallel(max: max))
                }
            },
            loadNext: { paginator.loadNextPage() },
            loadPrevious: { paginator.loadPreviousPage() },
            preload: { paginator.preload(index: $0) },
            seen: {
                let snapshot = paginator.snapshot.value
                return (snapshot.leadingCount, snapshot.listSerial, Array(snapshot.items))
            },
            edit: { kind, row, value in
                switch kind {
                case .insert: paginator.insert(value!, at: row)
                case .remove: paginator.remove(at: row)
                case .replace: paginator.replace(at: row, with: value!)
                }
            },
            retry: { paginator.retry() },
            cancel: { paginator.cancel() },
            observed: {
                Observed(
                    items: Array(paginator.items.value), state: paginator.state.value.name,
                    query: paginator.query.value, pages: paginator.pages.value, total: paginator.total.value,
                    isEndReached: paginator.isEndReached.value,
                    loadStates: Self.describe(paginator.loadStates.value))
            },
            slots: { Slots(paginator.slots.value) })
    }

    /// The load states as the reference spells them: `refresh/prepend/append`.
    static func describe(_ states: LoadStates<ServerError>) -> String {
        func describe(_ state: LoadState<ServerError>) -> String {
            switch state {
            case .idle(let end): end ? "end" : "idle"
            case .loading: "loading"
            case .failed: "failed"
            }
        }
        return [states.refresh, states.prepend, states.append].map(describe).joined(separator: "/")
    }

    static func fire(_ hook: Locked<(@Sendable () -> Void)?>) {
        let action = hook.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}

extension ModelConfiguration {
    /// The paginator's placeholders option: off, shown, or shown with jumps beyond
    /// ``PagingReference/jumpThreshold``.
    var placeholderOption: Placeholders {
        placeholders ? (jumps ? .jumping(threshold: PagingReference.jumpThreshold) : .shown) : .off
    }
}
