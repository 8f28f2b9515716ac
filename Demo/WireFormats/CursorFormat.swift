import Foundation
import Reactive
import Stapler

/// A response of a format that names its neighbour pages by URL: the items and those URLs.
struct LinkedPage: CursorPageResponse {
    let items: [RemoteItem]
    /// The absolute URL of the next page, the cursor of the library's cursor model.
    let nextCursor: String?
    /// The absolute URL of the page before this one, if the response names one.
    ///
    /// It is the key of the page a list opened mid-way pages up to; `nil` at the top, or when the API
    /// names no previous page.
    let previousCursor: String?
}

/// `GET url` answering `{next, previous, results}`, where `next` and `previous` are the URLs of the
/// neighbour pages, paged with the library's cursor model: the cursor is a URL, followed as it is.
///
/// A URL that names a page in the middle of the list (its `cursor` parameter) opens the list there;
/// its `previous` link pages up to the top while `next` pages down to the bottom.
enum CursorFormat {
    static func source(url: URL, client: HTTPClient) -> PageSource<RemoteItem, String?, Void, LinkedPage, HTTPFailure> {
        .cursor { cursor, _, _ in
            .onMainActor { () async throws(HTTPFailure) -> LinkedPage in
                let response = try await client.get(cursor.flatMap { URL(string: $0) } ?? url)
                return try client.decoded { () throws(HTTPFailure) in try PageDecoding.cursor(response) }
            }
        }
    }
}
