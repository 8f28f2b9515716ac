import Foundation
import Reactive
import Stapler

/// The `--url` run: detect the wire format, page the whole list as a user scrolling to the end
/// would, press retry after each failure (up to `--retries` in a row), then summarise.
///
/// A URL that names a page in the middle (an `offset`, a `page`, a `cursor`) opens the list at that
/// page; when the format names the page before (a `previous` link, a `Link` header's `rel="prev"`, or
/// the offset and page-number models' own arithmetic), the user scrolls up to the top first, then
/// down to the bottom, so the whole list loads.
@MainActor
enum HTTPRun {
    static func run(url: URL, options: DemoOptions) async -> ExitStatus {
        let log = Log.realTime(to: options.printIDs ? .standardError : .standardOutput)
        let client = HTTPClient(timeout: options.timeout, log: log)
        log.plain("Stapler demo: paging \(url.absoluteString)\n")
        log.heading()

        let format: WireFormat
        var fallbackSize = 20
        if let forced = options.format {
            format = forced
            log.write(.demo, "format", "\(forced.rawValue), as --format says: \(forced.title)")
        } else {
            log.write(.demo, "format", "detecting it from the first response")
            guard let detected = await detect(url: url, client: client, log: log, retries: options.retries) else {
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

    /// Requests `url` until its body shows the format, retrying like the paginator's user would.
    private static func detect(
        url: URL, client: HTTPClient, log: Log, retries: Int
    ) async -> (format: WireFormat, firstPageSize: Int)? {
        for attempt in 0...retries {
            if attempt > 0 {
                await HTTPSession.pause(beforeRetry: attempt)
                log.write(.user, "retry", "asks again for the first response (\(attempt) of at most \(retries))")
            }
            let response: HTTPResponse
            do {
                response = try await client.get(url)
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
@MainActor
struct HTTPSession {
    let client: HTTPClient
    let log: Log
    let options: DemoOptions
    let format: WireFormat
    let pageSize: Int

    /// How long the user waits before pressing retry the `attempt`-th time in a row.
    static func pause(beforeRetry attempt: Int) async {
        try? await Task.sleep(for: .milliseconds(150 * min(attempt, 4)))
    }

    /// Pages `source` from `initialKey` (the source's first key when `nil`) to both ends of the list.
    func page<Key, Metadata>(
        _ source: PageSource<RemoteItem, Key, Void, Metadata, HTTPFailure>, initialKey: Key? = nil
    ) async -> ExitStatus {
        let paginator = Paginator(source: source, pageSize: pageSize, initialKey: initialKey)
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

        var retries = 0
        var failuresInARow = 0
        var gaveUp = false
        log.write(.user, "refresh()", "opens the list")
        checker.willRefresh()
        gaveUp = !act { paginator.refresh() }
        var iterator = snapshots.makeAsyncIterator()
        loop: while !gaveUp, let snapshot = await iterator.next() {
            switch snapshot.state {
            case .uninitialized, .refreshing, .loadingMore:
                continue
            case .errorRefreshing(let error), .errorLoadingMore(let error):
                guard failuresInARow < options.retries else {
                    log.write(.user, "gives up", "the page still fails after \(options.retries) retries: \(error)")
                    gaveUp = true
                    break loop
                }
                failuresInARow += 1
                retries += 1
                await Self.pause(beforeRetry: failuresInARow)
                log.write(.user, "retry()", "presses retry (\(failuresInARow) of at most \(options.retries))")
                if !act({ paginator.retry() }) {
                    gaveUp = true
                    break loop
                }
            case .data, .noData:
                failuresInARow = 0
                if case .data = snapshot.state, !snapshot.loadStates.prepend.isEndReached {
                    log.write(.user, "loadPreviousPage()", "scrolls up to row 0, the first one loaded")
                    if !act({ paginator.loadPreviousPage() }) {
                        gaveUp = true
                        break loop
                    }
                    continue
                }
                if snapshot.isEndReached { break loop }
                let last = snapshot.items.count - 1
                log.write(.user, "preload(index:)", "scrolls to row \(last), the last one loaded")
                if !act({ paginator.preload(index: last) }) {
                    gaveUp = true
                    break loop
                }
            }
        }

        let final = paginator.snapshot.value
        let complete = final.isEndReached && (final.loadStates.prepend.isEndReached || final.items.isEmpty)
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
              user         \(plural(retries, "retry", "retries"))\(gaveUp ? ", then gave up" : "")
              list         \(final.items.count) items\(final.total.map { " of a total of \($0)" } ?? "")\
            \(complete ? ", the top and the end reached" : ", incomplete"), state \(final.state.name)
              invariants   \(violations.isEmpty ? "all held" : "\(violations.count) BROKEN") \
            (\(checker.checkCount) snapshots and changes checked)
            """)
        if options.printIDs {
            print(final.items.map { "\($0.id)" }.joined(separator: "\n"))
        }
        if !violations.isEmpty { return .invariantBroken }
        return gaveUp || !complete ? .gaveUp : .success
    }
}
