import Foundation
import Reactive
import Stapler
import TestSupport

/// An item of a server feed whose order is not a field of its rows: the mediator keeps the server's
/// position in `position`.
struct FeedItem: StoreRow, Equatable {
    var id: Int
    var title: String
    var position: Int64 = 0

    var storeID: StoreID { .integer(Int64(id)) }
}

extension StoreSchema where Row == FeedItem {
    /// Two explicit collections ordered by the server's position (two queries of one server).
    static let serverFeed = StoreSchema(
        table: "item",
        collections: [
            StoreCollection("feed", membership: .explicit, orderedBy: [.ascending(\.position)]),
            StoreCollection("other", membership: .explicit, orderedBy: [.ascending(\.position)]),
        ])
}

/// A page of the fake server.
struct FeedPage: PaginatedResponse {
    let items: [FeedItem]
    let total: Int
}

/// A list of items over a store, filled by a mediator.
typealias FeedList = Paginator<FeedItem, StorePosition, Void, StoreListMetadata, StoreError>

/// A server with a feed, newest first, that answers offset pages at once and counts them.
final class FakeFeedServer: @unchecked Sendable {
    // Guarded by `lock`.
    private var feed: [Int]
    private var offsets: [Int] = []
    private var down = false
    private let lock = NSLock()

    init(ids: [Int]) { feed = ids }

    /// The offsets asked for so far.
    var requests: [Int] { lock.withLock { offsets } }

    /// Inserts `ids` at the top of the feed (every later offset shifts).
    func insertAtTop(_ ids: [Int]) { lock.withLock { feed.insert(contentsOf: ids, at: 0) } }

    /// Makes every request fail (or succeed again).
    func setDown(_ isDown: Bool) { lock.withLock { down = isDown } }

    /// The feed as an offset source.
    var source: PageSource<FeedItem, Int, Void, FeedPage, Error> {
        .offset { [self] offset, size, _ in
            lock.withLock {
                offsets.append(offset)
                if down { return SignalProducer(error: Offline()) }
                let rows = feed.dropFirst(offset).prefix(size).map { FeedItem(id: $0, title: "i\($0)") }
                return SignalProducer(value: FeedPage(items: Array(rows), total: feed.count))
            }
        }
    }
}
