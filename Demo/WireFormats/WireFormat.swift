import Foundation

/// The pagination wire formats the demo speaks, each mapped onto a page model of the library.
enum WireFormat: String, CaseIterable, Sendable {
    /// `?limit=&offset=` with `{count, next, previous, results}`: the offset + total model.
    case limitOffset = "limit-offset"
    /// `?page=` with the same envelope: the page-number model.
    case pageNumber = "page-number"
    /// `{next, previous, results}` whose `next` is a URL: the cursor model, the URL as the cursor.
    case cursor
    /// A bare JSON array and a `Link: <...>; rel="next"` header: the cursor model over `next`.
    case linkHeader = "link-header"

    /// What the log calls it.
    var title: String {
        switch self {
        case .limitOffset: "limit/offset envelope (like Django REST Framework's LimitOffsetPagination)"
        case .pageNumber: "page-number envelope (like Django REST Framework's PageNumberPagination)"
        case .cursor: "cursor envelope whose next is a URL (like Django REST Framework's CursorPagination)"
        case .linkHeader: "JSON array with a Link header (like GitHub's REST API)"
        }
    }

    /// The query parameters that may carry the page size, the first one used when none is present.
    var pageSizeParameters: [String] {
        switch self {
        case .limitOffset: ["limit"]
        case .pageNumber, .cursor: ["page_size", "per_page", "size", "limit"]
        case .linkHeader: ["per_page", "page_size", "size", "limit"]
        }
    }

    /// Recognises the format of a first response: a JSON array is the Link-header format; an object
    /// with `results` is one of the envelopes, told apart by `count` and the parameters of its links.
    static func detect(_ response: HTTPResponse) -> WireFormat? {
        guard let json = try? JSONSerialization.jsonObject(with: response.body) else { return nil }
        if json is [Any] { return .linkHeader }
        guard let object = json as? [String: Any], object["results"] is [Any] else { return nil }
        let links = ["next", "previous"].compactMap { object[$0] as? String }.compactMap { URL(string: $0) }
        let parameters = Set(
            (links + [response.url]).flatMap { url in
                URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.map(\.name) ?? []
            })
        if parameters.contains("cursor") { return .cursor }
        guard object["count"] is Int else { return .cursor }
        if parameters.contains("offset") || parameters.contains("limit") { return .limitOffset }
        return .pageNumber
    }

    /// Where the page size comes from: `--page-size`, else the URL's own parameter, else `fallback`.
    ///
    /// Returns the size and the parameter to send it in (`nil` when the server's default is used).
    func pageSize(flag: Int?, url: URL, fallback: Int) -> (size: Int, parameter: String?) {
        let present = pageSizeParameters.first { url.queryValue($0) != nil }
        if let flag { return (flag, present ?? pageSizeParameters[0]) }
        if let present, let value = url.queryValue(present).flatMap(Int.init), value > 0 { return (value, present) }
        // limit/offset must send a limit, or the server's pages and our offsets could disagree.
        return (max(1, fallback), self == .limitOffset ? "limit" : nil)
    }
}
