import Foundation
import Reactive
import Stapler

/// The relaunch scene, last of the default run: an app that saves its list to a file when the user
/// leaves it, and shows it again at the next launch with no request.
///
/// First launch: the user scrolls half-way down a long list paged with `maxPages` (pages dropped at
/// the top on the way); leaving the app saves `paginator.savedState` as JSON (``SavedListFile``), and the
/// system ends the app (its load in flight, if any, is disposed). Second launch: the list is read from
/// the file and shown by `Paginator(restoring:)` at once, with 0 requests; then the app revalidates it
/// around the row last shown (`refresh(.around(index:minimumCount:))`), which keeps the user's place,
/// and the user scrolls to the top, the pages above loading again.
///
/// With `--save-to FILE` the first launch keeps its file there; `--restore-from FILE` plays the second
/// launch alone (``secondLaunchOnly(from:)``), as a new process would.
@MainActor
struct RelaunchRun {
    let options: DemoOptions
    let simulation: Simulation
    let log: Log

    /// Both launches, through `--save-to` or a temporary file, and their summary.
    func run() -> SceneResult {
        let url =
            options.saveTo
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "stapler-demo-list-\(UUID().uuidString).json")
        defer { if options.saveTo == nil { try? FileManager.default.removeItem(at: url) } }
        let first = firstLaunch(savingTo: url)
        guard first.result.complete, !first.result.gaveUp else {
            return first.result
        }
        let second = secondLaunch(from: url)
        return SceneResult(
            summary: first.result.summary + "\n" + second.summary,
            violations: first.result.violations + second.violations, checks: first.result.checks + second.checks,
            complete: second.complete, gaveUp: second.gaveUp)
    }

    /// The second launch alone, from a file an earlier run saved (`--restore-from`).
    func secondLaunchOnly(from url: URL) -> SceneResult {
        secondLaunch(from: url)
    }

    /// The long list of this scene: the same products in both launches (and in both processes).
    private var catalog: SimulatedCatalog {
        var random = SplitMix(seed: options.seed ^ 0x7265_6C61)
        return SimulatedCatalog(count: options.longItemCount, random: &random)
    }

    /// A server over ``catalog`` for one launch; each launch counts its own requests.
    private func backend(launch: UInt64) -> SimulatedBackend {
        SimulatedBackend(
            catalog: catalog, simulation: simulation, log: log, latency: options.latency,
            failureRate: options.failureRate, faults: .none, random: SplitMix(seed: options.seed ^ launch))
    }

    // MARK: - First launch

    private func firstLaunch(savingTo url: URL) -> (result: SceneResult, saved: SavedProducts?) {
        let pageSize = options.simulatedPageSize
        let backend = backend(launch: 1)
        let catalog = backend.catalog
        let paginator = ScrollingSession.ProductPaginator(
            source: backend.source, query: nil,
            options: PagingOptions(
                pageSize: pageSize, prefetchDistance: options.boundedPrefetchDistance, maxPages: options.maxPages))
        let checker = InvariantChecker<Product, Category?, ServerError>(
            query: nil, log: log, expectedIDs: { catalog.ids(for: $0) }, describeQuery: { $0.logName })
        let watcher = MemoryBoundWatcher(maxPages: options.maxPages, pageSize: pageSize, log: log)
        log.chapter("A relaunch, first launch: the user scrolls half-way down the long list, then leaves the app")
        let observing = CompositeDisposable()
        observing += PaginatorLogger.attach(to: paginator, log: log)
        observing += checker.watch(paginator)
        observing += watcher.watch(paginator)
        var saved: (state: SavedProducts, bytes: Int)?
        var failure: String?
        let session = ScrollingSession(
            paginator: paginator, simulation: simulation, log: log, maximumRetries: options.retries,
            goals: [.down(rows: options.longItemCount / 2)]
        ) { _ in
            log.write(.user, "leaves the app", "the app saves its list")
            do {
                guard let state = paginator.savedState else { throw SavedListError.nothingShown }
                saved = (state, try SavedListFile.write(state, to: url))
                let dropped = watcher.counts.droppedAtTop
                log.write(
                    .demo, "saved",
                    Self.describe(state) + ", with the keys of the \(plural(dropped, "page", "pages")) dropped above, "
                        + "to \(fileName(url))")
            } catch {
                failure = "the list was not saved: \(error)"
                log.write(.check, "SAVE FAILED", "\(error)")
            }
            observing.dispose()
            log.write(.demo, "the app ends", "the system ends the app: its paginator and any load in flight go")
            paginator.cancel()
        }
        simulation.schedule(after: .zero) {
            log.write(.user, "refresh()", "opens the long list")
            checker.willRefresh()
            paginator.refresh()
            session.start()
        }
        simulation.run()
        observing.dispose()

        let statistics = backend.statistics
        let outcome = session.outcome
        let shown = outcome.shownIDs.first ?? []
        var violations = checker.violations + watcher.violations + (failure.map { [$0] } ?? [])
        if outcome.finished, let mismatch = firstMismatch(shown, Array(catalog.ids(for: nil).prefix(shown.count))) {
            violations.append(log.broken("the first launch showed rows out of order: \(mismatch)"))
        }
        let summary = """
              relaunch 1   \(saved.map { "saved " + Self.describe($0.state) + " in \($0.bytes) bytes of JSON" } ?? "nothing saved"); \
            \(plural(statistics.requests, "request", "requests")), \(plural(outcome.retries, "retry", "retries"))\
            \(outcome.gaveUp ? ", then gave up" : "")
            """
        let result = SceneResult(
            summary: summary, violations: violations, checks: checker.checkCount + watcher.checkCount,
            complete: outcome.finished && saved != nil, gaveUp: outcome.gaveUp)
        return (result, saved?.state)
    }

    // MARK: - Second launch

    private func secondLaunch(from url: URL) -> SceneResult {
        let pageSize = options.simulatedPageSize
        let backend = backend(launch: 2)
        let catalog = backend.catalog
        log.chapter("A relaunch, second launch: the list comes back from the file, with no request")
        let restored = restore(from: url, backend: backend)
        let paginator = restored.paginator
        let checker = InvariantChecker<Product, Category?, ServerError>(
            query: nil, log: log, expectedIDs: { catalog.ids(for: $0) }, describeQuery: { $0.logName })
        let watcher = MemoryBoundWatcher(maxPages: options.maxPages, pageSize: pageSize, log: log)
        let observing = CompositeDisposable()
        observing += PaginatorLogger.attach(to: paginator, log: log)
        if restored.saved != nil { checker.resume(from: paginator.snapshot.value) }
        observing += checker.watch(paginator)
        observing += watcher.watch(paginator)

        let lastRow = restored.saved?.lastShownRow ?? 0
        let startRow = max(lastRow - (DemoOptions.screenRows - 1), 0)
        let session = ScrollingSession(
            paginator: paginator, simulation: simulation, log: log, maximumRetries: options.retries, goals: [.top],
            startRow: startRow)
        simulation.schedule(after: .zero) {
            if restored.saved != nil {
                let minimumCount = 2 * pageSize
                log.write(
                    .demo, "refresh(.around:)",
                    "revalidates the restored list: refresh(.around(index: \(lastRow), minimumCount: \(minimumCount)))")
                checker.willRefresh()
                paginator.refresh(.around(index: lastRow, minimumCount: minimumCount))
            } else {
                log.write(.demo, "refresh()", "opens the list afresh")
                checker.willRefresh()
                paginator.refresh()
            }
            session.start()
        }
        simulation.run()
        observing.dispose()

        let statistics = backend.statistics
        let outcome = session.outcome
        var violations = checker.violations + watcher.violations
        if restored.requests != 0 {
            violations.append(log.broken("the restored list made \(restored.requests) requests"))
        }
        let shown = outcome.shownIDs.last ?? []
        if outcome.finished,
            let mismatch = firstMismatch(shown, Array(catalog.ids(for: nil).prefix(shown.count).reversed()))
        {
            violations.append(log.broken("going up after the relaunch, the rows shown were out of order: \(mismatch)"))
        }
        let restoredText =
            restored.saved.map {
                "restored \(Self.describe($0)) from \(restored.bytes) bytes with \(plural(restored.requests, "request", "requests")), "
                    + "revalidated around row \(lastRow)"
            } ?? "nothing restored (\(restored.failure ?? "no file")): opened afresh"
        let summary = """
              relaunch 2   \(restoredText); then scrolled to the top\(outcome.finished ? "" : ", incomplete"): \
            \(plural(statistics.requests, "request", "requests")) in all, \(plural(outcome.retries, "retry", "retries"))\
            \(outcome.gaveUp ? ", then gave up" : "")
            """
        return SceneResult(
            summary: summary, violations: violations, checks: checker.checkCount + watcher.checkCount,
            complete: outcome.finished, gaveUp: outcome.gaveUp)
    }

    /// What the second launch starts from: the paginator restored from `url`, or a new one when the file
    /// does not restore, and how many requests the restoring made.
    private func restore(from url: URL, backend: SimulatedBackend) -> Restored {
        let pageSize = options.simulatedPageSize
        do {
            guard FileManager.default.fileExists(atPath: url.path) else { throw SavedListError.noFile(url.path) }
            let (saved, bytes) = try SavedListFile.read(from: url)
            log.write(.demo, "read", "\(bytes) bytes of JSON from \(fileName(url)): \(Self.describe(saved))")
            let before = backend.statistics.requests
            let paginator = try ScrollingSession.ProductPaginator(
                restoring: saved, source: backend.source,
                options: PagingOptions(
                    pageSize: pageSize, prefetchDistance: options.boundedPrefetchDistance, maxPages: options.maxPages))
            let requests = backend.statistics.requests - before
            let snapshot = paginator.snapshot.value
            log.write(
                .demo, "restored",
                "Paginator(restoring:) shows \(snapshot.items.count) products at once, \(snapshot.items.idSummary), "
                    + "state \(snapshot.state.name), \(plural(snapshot.pages, "page", "pages")), "
                    + "total \(snapshot.total.map(String.init) ?? "nil")")
            log.write(.demo, "requests", "\(plural(requests, "request", "requests")) to show the restored list")
            return Restored(paginator: paginator, saved: saved, bytes: bytes, requests: requests, failure: nil)
        } catch {
            log.write(.demo, "restore failed", "\(error): the app opens the list afresh")
            let paginator = ScrollingSession.ProductPaginator(
                source: backend.source, query: nil,
                options: PagingOptions(
                    pageSize: pageSize, prefetchDistance: options.boundedPrefetchDistance, maxPages: options.maxPages))
            return Restored(paginator: paginator, saved: nil, bytes: 0, requests: 0, failure: "\(error)")
        }
    }

    /// How the log names the file: its path when the user gave it, else what it is (a temporary
    /// file's name changes from run to run, and the same seed must play the same log).
    private func fileName(_ url: URL) -> String {
        url == options.saveTo || url == options.restoreFrom ? url.path : "a temporary file"
    }

    private struct Restored {
        let paginator: ScrollingSession.ProductPaginator
        let saved: SavedProducts?
        let bytes: Int
        let requests: Int
        let failure: String?
    }

    /// A saved list in a few words: its products, its pages, the pages dropped, the row last shown.
    static func describe(_ saved: SavedProducts) -> String {
        "\(saved.items.count) products in \(plural(saved.pageCount, "page", "pages")) (\(saved.items.idSummary), "
            + "the row last shown \(saved.lastShownRow.map(String.init) ?? "none"))"
    }
}

/// Why a launch saved or restored no list, besides the errors of the file and of decoding.
enum SavedListError: Error, CustomStringConvertible {
    /// The paginator showed no list to save.
    case nothingShown
    /// No file holds a saved list at this path.
    case noFile(String)

    var description: String {
        switch self {
        case .nothingShown: "the paginator shows no list yet"
        case .noFile(let path): "no saved list at \(path)"
        }
    }
}
