import Foundation
import Reactive
import Stapler

/// A response of a format that names the next page by a URL: the items and that URL.
struct LinkedPage: CursorPageResponse {
    let items: [RemoteItem]
    /// The absolute URL of the next page, the cursor of the library's cursor model.
    let nextCursor: String?
}

/// `GET url` answering `{next, previous, results}`, where `next` is the URL of the next page, paged
/// with the library's cursor model: the cursor is the `next` URL, followed as it is.
enum CursorFormat {
    static func source(url: URL, client: HTTPClient) -> PageSource<RemoteItem, String?, Void, LinkedPage, HTTPFailure> {
        .cursor { cursor, _, _ in
            .onMainActor { () async throws(HTTPFailure) -> LinkedPage in
                let response = try await client.get(cursor.flatMap { URL(string: $0) } ?? url)
                let envelope = try client.decode(Envelope.self, from: response)
                return LinkedPage(
                    items: envelope.results, nextCursor: envelope.nextURL(relativeTo: response.url)?.absoluteString)
            }
        }
    }
}
