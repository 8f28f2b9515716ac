import Foundation
import Reactive
import Stapler

/// The `--url` run: detect the wire format, page the whole list as a user scrolling to the end
/// would, while the paginator's policy (`PagingPolicy`) times out a page that takes longer than
/// `--timeout` and retries a failed page by itself with backoff (`AutoRetry`, up to `--retries` in a
/// row), then summarise.
///
/// A URL that names a page in the middle (an `offset`, a `page`, a `cursor`) opens the list at that
/// page; when the format names the page before (a `previous` link, a `Link` header's `rel="prev"`, or
/// the offset and page-number models' own arithmetic), the user scrolls up to the top first, then
/// down to the bottom, so the whole list loads.
@MainActor
enum HTTPRun {
    static func run(url: URL, options: DemoOptions) async -> ExitStatus {
        let log = Log.realTime(to: options.printIDs ? .standardError : .standardOutput)
        // The transport's own time-out is a backstop well beyond the paginator's loadTimeout, so that the
        // paginator's timeout is the one that ends a page's request (see HTTPSession.policy).
        let client = HTTPClient(timeout: options.timeout * 2 + .seconds(1), log: log)
        log.plain("Stapler demo: paging \(url.absoluteString)\n")
        log.heading()

        let format: WireFormat
        var fallbackSize = 20
        if let forced = options.format {
            format = forced
            log.write(.demo, "format", "\(forced.rawValue), as --format says: \(forced.title)")
        } else {
            log.write(.demo, "format", "detecting it from the first response")
            guard let detected = await detect(url: url, client: client, log: log, options: options) else {
                return .gaveUp
            }
            format = detected.format
            fallbackSize = detected.firstPageSize
            log.write(.demo, "format", "\(format.rawValue): \(format.title)")
        }
        let (pageSize, sizeParameter) = format.pageSize(flag: options.pageSize, url: url, fallback: fallbackSize)
        var firstURL = url
        if let sizeParameter, format != .pageNumber {
            firstURL = url.settingQuery([sizeParameter: "\(pageSize)"])
        }
        log.write(.demo, "page size", "\(pageSize)" + (sizeParameter.map { ", sent as ?\($0)=" } ?? ", the server's"))

        let session = HTTPSession(client: client, log: log, options: options, format: format, pageSize: pageSize)
        switch format {
        case .limitOffset:
            return await session.page(
                LimitOffsetFormat.source(url: url, client: client), initialKey: LimitOffsetFormat.initialKey(of: url))
        case .pageNumber:
            return await session.page(
                PageNumberFormat.source(url: url, sizeParameter: sizeParameter, client: client),
                initialKey: PageNumberFormat.initialKey(of: url, pageSize: pageSize))
        case .cursor:
            return await session.page(CursorFormat.source(url: firstURL, client: client))
        case .linkHeader:
            return await session.page(LinkHeaderFormat.source(url: firstURL, client: client))
        }
    }

    /// Requests `url` until its body shows the format, at most `--retries` times again, each request
    /// within `--timeout`.
    ///
    /// This is the one retry loop of the run, and it stays hand-written on purpose: it runs before any
    /// paginator exists (the format decides which page model to build), so there is no paging policy
    /// yet to time it out and retry it. Every page after it, the first included, is the paginator's.
    private static func detect(
        url: URL, client: HTTPClient, log: Log, options: DemoOptions
    ) async -> (format: WireFormat, firstPageSize: Int)? {
        let retries = options.retries
        for attempt in 0...retries {
            if attempt > 0 {
                await HTTPSession.pause(beforeRetry: attempt)
                log.write(.user, "retry", "asks again for the first response (\(attempt) of at most \(retries))")
            }
            let response: HTTPResponse
            do {
                response = try await client.get(url, timeout: options.timeout)
            } catch {
                continue
            }
            guard let format = WireFormat.detect(response) else {
                _ = client.fail(
                    .malformed("neither a JSON array nor an object with \"results\": no known format"), after: nil)
                continue
            }
            let size =
                (try? JSONSerialization.jsonObject(with: response.body)).flatMap { json in
                    ((json as? [Any]) ?? ((json as? [String: Any])?["results"] as? [Any]))?.count
                } ?? 20
            return (format, size)
        }
        log.write(.user, "gives up", "no usable first response after \(retries) retries")
        return nil
    }
}

/// One paginator over an HTTP source, driven to both ends of the list: up to the top while the top
/// page names a page before it, then down to the bottom.
///
/// The user never presses retry: the paginator's policy times a page out after `--timeout` and asks
/// for a failed page again by itself. The user waits, and gives up when a failure stands: when the
/// error is not retryable, or when the failures in a row pass `--retries` (the policy's `maxRetries`,
/// counted as the paginator counts them: a page applied starts the count again).
@MainActor
struct HTTPSession {
    let client: HTTPClient
    let log: Log
    let options: DemoOptions
    let format: WireFormat
    let pageSize: Int

    /// How long the format detection waits before asking again the `attempt`-th time in a row.
    static func pause(beforeRetry attempt: Int) async {
        try? await Task.sleep(for: .milliseconds(150 * min(attempt, 4)))
    }

    /// The paginator's policy: `--timeout` as its `loadTimeout`, `--retries` as its `maxRetries`.
    ///
    /// The automatic retries wait 200 ms, doubling up to 2 s, ±25 % jitter; `--retries 0` means none
    /// (`AutoRetry` needs at least one). Both run on the policy's default clock, a background queue's.
    static func policy(_ options: DemoOptions) -> PagingPolicy {
        let autoRetry =
            options.retries > 0
            ? AutoRetry(
                maxRetries: options.retries, base: .milliseconds(200), factor: 2, maxDelay: .seconds(2), jitter: 0.25)
            : nil
        return PagingPolicy(loadTimeout: options.timeout, autoRetry: autoRetry)
    }

    /// Pages `source` from `initialKey` (the source's first key when `nil`) to both ends of the list.
    func page<Key, Metadata>(
        _ source: PageSource<RemoteItem, Key, Void, Metadata, HTTPFailure>, initialKey: Key? = nil
    ) async -> ExitStatus {
        let bound = MemoryBoundChoice(requested: options.requestedMaxPages, pageSize: pageSize)
        if let bound { log.write(.demo, "memory bound", bound.description) }
        let paginator = Paginator(
            source: source, initialKey: initialKey,
            options: PagingOptions(
                pageSize: pageSize, prefetchDistance: bound?.prefetchDistance,
                deduplication: options.deduplicates ? .by(\.id) : nil, policy: Self.policy(options),
                maxPages: bound?.maxPages))
        var walk = WalkedRows()
        var reachedTop = false
        let checker = InvariantChecker<RemoteItem, Void, HTTPFailure>(
            query: (), log: log, describeQuery: { _ in "the list" })
        let logging = PaginatorLogger.attach(to: paginator, log: log)
        let checking = checker.watch(paginator)
        defer {
            logging.dispose()
            checking.dispose()
        }

        // Every snapshot, in order; an action that does something publishes one at once.
        let (snapshots, continuation) = AsyncStream.makeStream(
            of: Paginator<RemoteItem, Key, Void, Metadata, HTTPFailure>.Snapshot.self)
        let published = LockedState(0)
        let observation = paginator.snapshot.signal.observeValues { snapshot in
            published.withLock { $0 += 1 }
            continuation.yield(snapshot)
        }
        defer {
            observation.dispose()
            continuation.finish()
        }

        /// Runs `action` and reports whether the paginator published anything, as it always should:
        /// when it does not, no snapshot would ever come to wake the loop below.
        func act(_ action: () -> Void) -> Bool {
            let before = published.withLock { $0 }
            action()
            guard published.withLock({ $0 }) == before else { return true }
            log.write(.demo, "stuck", "the paginator ignored the call in state \(paginator.snapshot.value.state.name)")
            return false
        }

        var automaticRetries = 0
        var timeouts = 0
        var failuresInARow = 0
        var gaveUp = false
        var previousState = paginator.snapshot.value.state
        log.write(.user, "refresh()", "opens the list")
        checker.willRefresh()
        gaveUp = !act { paginator.refresh() }
        var iterator = snapshots.makeAsyncIterator()
        loop: while !gaveUp, let snapshot = await iterator.next() {
            defer { previousState = snapshot.state }
            // Up to the top once, then down: with a bound, going down drops the top again, and the walk
            // does not turn back for it.
            reachedTop = reachedTop || snapshot.loadStates.prepend.isEndReached
            walk.record(snapshot.items, topReached: reachedTop)
            switch snapshot.state {
            case .uninitialized, .refreshing, .loadingMore:
                // A load that starts from an error state is the policy's: the user never presses retry.
                if previousState.error != nil { automaticRetries += 1 }
                continue
            case .errorRefreshing(let error), .errorLoadingMore(let error):
                // Each failure is announced once; a snapshot that repeats it (another change) is no new one.
                guard previousState.error == nil else { continue }
                failuresInARow += 1
                if case .timedOut = error { timeouts += 1 }
                guard error.isRetryable else {
                    log.write(.user, "gives up", "the page is unavailable, retrying cannot help: \(error)")
                    gaveUp = true
                    break loop
                }
                guard failuresInARow <= options.retries else {
                    let spent = plural(options.retries, "automatic retry", "automatic retries")
                    log.write(.user, "gives up", "the page still fails after \(spent): \(error)")
                    gaveUp = true
                    break loop
                }
                let count = "failure \(failuresInARow) in a row, at most \(options.retries) retries"
                log.write(.user, "waits", "the policy retries by itself (\(count))")
            case .data, .noData:
                failuresInARow = 0
                if case .data = snapshot.state, !reachedTop {
                    // With a bound, the row shown decides which end drops: the user shows row 0.
                    let (call, up): (String, () -> Void) =
                        bound == nil
                        ? ("loadPreviousPage()", { paginator.loadPreviousPage() })
                        : ("preload(index:)", { paginator.preload(index: 0) })
                    log.write(.user, call, "scrolls up to row 0, the first one loaded")
                    if !act(up) {
                        gaveUp = true
                        break loop
                    }
                    editWhileLoading(paginator)
                    continue
                }
                if snapshot.isEndReached { break loop }
                let last = snapshot.items.count - 1
                log.write(.user, "preload(index:)", "scrolls to row \(last), the last one loaded")
                if !act({ paginator.preload(index: last) }) {
                    gaveUp = true
                    break loop
                }
                editWhileLoading(paginator)
            }
        }

        let final = paginator.snapshot.value
        // The top counts once reached: with a bound, the walk down dropped it again.
        let complete = final.isEndReached && (reachedTop || final.items.isEmpty)
        let violations = checker.violations
        let counts = client.counts
        let failures =
            counts.failures.isEmpty
            ? "none"
            : counts.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        log.plain(
            """

            ── Summary
              format       \(format.rawValue), pages of \(pageSize)
              requests     \(counts.requests), failed: \(failures)
              policy       loadTimeout \(Log.milliseconds(options.timeout)): \(plural(timeouts, "time-out", "time-outs")); \
            \(plural(automaticRetries, "automatic retry", "automatic retries"))\(gaveUp ? ", then the user gave up" : "")
              list         \(final.items.count) items\(final.total.map { " of a total of \($0)" } ?? "")\
            \(complete ? ", the top and the end reached" : ", incomplete"), state \(final.state.name)
              invariants   \(violations.isEmpty ? "all held" : "\(violations.count) BROKEN") \
            (\(checker.checkCount) snapshots and changes checked)
            """)
        if options.printIDs {
            // With a bound the list kept only its last pages: the walk is what every item must be in once.
            let ids = bound == nil ? final.items.map(\.id) : walk.ids
            if walk.lostItsPlace { log.write(.demo, "walk", "a snapshot lost the last row walked: ids are missing") }
            print(ids.map { "\($0)" }.joined(separator: "\n"))
        }
        if !violations.isEmpty { return .invariantBroken }
        return gaveUp || !complete ? .gaveUp : .success
    }
}
