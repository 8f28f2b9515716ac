import Foundation
import Reactive
import Stapler

/// `GET url?limit=N&offset=K` answering `{count, next, previous, results}`, paged with the library's
/// offset + total model: `count` is the total, and the next offset counts the items received.
///
/// The model's previous key is the offset `limit` rows up, clamped at 0: the page Django REST
/// Framework's `previous` link names. A URL with an `offset` opens the list there (see
/// ``initialKey(of:)``) and pages up to the top as well as down.
enum LimitOffsetFormat {
    struct Response: PaginatedResponse {
        let items: [RemoteItem]
        let total: Int
    }

    static func source(url: URL, client: HTTPClient) -> PageSource<RemoteItem, Int, Void, Response, HTTPFailure> {
        .offset { offset, size, _ in
            .onMainActor { () async throws(HTTPFailure) -> Response in
                let response = try await client.get(url.settingQuery(["limit": "\(size)", "offset": "\(offset)"]))
                return try client.decoded { () throws(HTTPFailure) in try PageDecoding.limitOffset(response) }
            }
        }
    }

    /// The offset `url` names, when it names a page after the first: the key the list opens at.
    static func initialKey(of url: URL) -> Int? {
        url.queryValue("offset").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }
}
