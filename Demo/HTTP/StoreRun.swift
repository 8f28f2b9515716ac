import Foundation
import Reactive
import Stapler
import StaplerSQLite

/// The `--url URL --store FILE` run: a list over a SQLite store that a mediator fills from the API
/// (limit/offset), walked to the end.
///
/// A first run walks the whole list into the store; a later run with
/// the server down opens the list from the store and shows every row it holds. Either way the ids print
/// in list order, each once, and a list shown from the store is a success (the network failure is logged).
///
/// The API's order is not a field of its rows, so the mediator keeps the server's position in
/// `StoredItem.position` and the collection is ordered by it: rows inserted at the top of the server's
/// list while the walk pages down shift every later offset, and the rows a page then repeats keep their
/// stored place, so no id prints twice or goes missing.
@MainActor
enum StoreRun {
    /// A row of the store: the API item's id and the server's position.
    struct StoredItem: StoreRow {
        var id: String
        var position: Int64 = 0
        var storeID: StoreID { .text(id) }
    }

    /// A limit/offset page of stored items.
    struct Response: PaginatedResponse {
        let items: [StoredItem]
        let total: Int
    }

    static let schema = StoreSchema<StoredItem>(
        table: "item",
        collections: [StoreCollection("list", membership: .explicit, orderedBy: [.ascending(\.position)])])

    static func run(url: URL, storePath: String, options: DemoOptions) async -> ExitStatus {
        let log = Log.realTime(to: options.printIDs ? .standardError : .standardOutput)
        let client = HTTPClient(timeout: options.timeout * 2 + .seconds(1), log: log)
        log.plain("Stapler demo: paging \(url.absoluteString) into the store \(storePath)\n")
        let store: SQLiteStore<StoredItem>
        do {
            store = try SQLiteStore(path: storePath, schema: schema)
        } catch {
            log.write(.demo, "store", "cannot open \(storePath): \(error)")
            return .gaveUp
        }
        let pageSize = options.pageSize ?? 20
        let source = PageSource<StoredItem, Int, Void, Response, HTTPFailure>.offset { offset, size, _ in
            .onMainActor { () async throws(HTTPFailure) -> Response in
                let response = try await client.get(url.settingQuery(["limit": "\(size)", "offset": "\(offset)"]))
                let page = try client.decoded { () throws(HTTPFailure) in try PageDecoding.limitOffset(response) }
                return Response(items: page.items.map { StoredItem(id: $0.id.description) }, total: page.total)
            }
        }
        let mediator = PageSourceMediator(source: source, query: (), keys: .lossless, positionedBy: \.position)
        let list = Paginator(
            store: store, collection: "list", pageSize: pageSize, remote: mediator, scheduler: QueueScheduler.main)
        // A failed refresh is asked again up to --retries times, then the list pages what the store holds;
        // a failed page at the bottom is asked again up to --retries times in a row, then the walk ends.
        var refreshFailures = 0
        var appendFailures = 0
        while true {
            await settle(list)
            let states = list.loadStates.value
            if let error = states.refresh.error, refreshFailures <= options.retries {
                refreshFailures += 1
                log.write(.demo, "network", "the refresh failed: \(error)")
                if refreshFailures <= options.retries {
                    _ = await list.retry()
                    continue
                }
                log.write(.demo, "store", "shows what it holds")
            }
            if let error = states.append.error {
                appendFailures += 1
                log.write(.demo, "network", "a page failed: \(error)")
                guard appendFailures <= options.retries else { break }
                _ = await list.retry()
                continue
            }
            if states.append.isEndReached { break }
            let shown = list.items.value.count
            if case .ignored = await list.loadNextPage() { break }
            await settle(list)
            // The network is down and the store has nothing further: the list shows what it holds.
            if list.items.value.count == shown, list.remoteLoadStates.append == .blocked { break }
            if list.loadStates.value.append.error == nil { appendFailures = 0 }
        }
        let ids = list.items.value.map(\.id)
        log.write(.demo, "store", "\(ids.count) rows shown from the store, \(Set(ids).count) distinct")
        if options.printIDs {
            print(ids.joined(separator: "\n"))
        }
        return Set(ids).count == ids.count ? .success : .invariantBroken
    }

    /// Waits until nothing loads.
    private static func settle(_ list: Paginator<StoredItem, StorePosition, Void, StoreListMetadata, StoreError>) async
    {
        while list.loadStates.value.isLoading {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
