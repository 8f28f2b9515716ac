import Foundation
import Reactive
import Stapler

/// `GET url?page=N` answering `{count, next, previous, results}`, paged with the library's
/// page-number model: `count` is the item count, and a page without `next` is the last one.
///
/// The model's previous key is page `n - 1`, down to page 1: the page Django REST Framework's
/// `previous` link names. A URL with a `page` opens the list there (see
/// ``initialKey(of:pageSize:)``) and pages up to the top as well as down.
enum PageNumberFormat {
    struct Response: NumberedPageResponse {
        let items: [RemoteItem]
        let itemCount: Int?
        let pageCount: Int?
    }

    /// The source over `url`; `sizeParameter` is the query parameter that carries the page size, if
    /// one is sent.
    static func source(
        url: URL, sizeParameter: String?, client: HTTPClient
    ) -> PageSource<RemoteItem, PageNumberKey, Void, Response, HTTPFailure> {
        .pageNumber(firstPage: 1) { page, size, _ in
            .onMainActor { () async throws(HTTPFailure) -> Response in
                var pageURL = url.settingQuery(["page": "\(page)"])
                if let sizeParameter { pageURL = pageURL.settingQuery([sizeParameter: "\(size)"]) }
                let response = try await client.get(pageURL)
                return try client.decoded { () throws(HTTPFailure) in try PageDecoding.pageNumber(response, page: page)
                }
            }
        }
    }

    /// The page `url` names, when it names one after the first: the key the list opens at, counting
    /// `pageSize` items on each page before it.
    static func initialKey(of url: URL, pageSize: Int) -> PageNumberKey? {
        guard let page = url.queryValue("page").flatMap(Int.init), page > 1 else { return nil }
        return PageNumberKey(page: page, itemsBefore: (page - 1) * pageSize)
    }
}
