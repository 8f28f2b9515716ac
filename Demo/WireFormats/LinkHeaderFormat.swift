import Foundation
import Reactive
import Stapler

/// `GET url?page=N&per_page=M` answering a bare JSON array of items, with the neighbour pages in a
/// `Link: <url>; rel="next", <url>; rel="prev"` header (as GitHub's REST API does), paged with the
/// library's cursor model over those URLs: `next` is the next key, `prev` the previous key, so a URL
/// that names a page in the middle pages both ways.
enum LinkHeaderFormat {
    static func source(url: URL, client: HTTPClient) -> PageSource<RemoteItem, String?, Void, LinkedPage, HTTPFailure> {
        .cursor { cursor, _, _ in
            .onMainActor { () async throws(HTTPFailure) -> LinkedPage in
                let response = try await client.get(cursor.flatMap { URL(string: $0) } ?? url)
                return try client.decoded { () throws(HTTPFailure) in try PageDecoding.linkHeader(response) }
            }
        }
    }

    /// The URLs of a `Link` header, by relation.
    ///
    /// `<a>; rel="next", <b>; rel="last"` gives `["next": "a", "last": "b"]`; a `rel` may name several
    /// relations (`rel="next last"`).
    static func links(in header: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            // The parameters run to the next link, which starts with "<".
            var parameters = rest[rest.index(after: close)...]
            if let nextLink = parameters.firstIndex(of: "<") {
                rest = parameters[nextLink...]
                parameters = parameters[..<nextLink]
            } else {
                rest = ""
            }
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",")))
                }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                for relation in relations.split(separator: " ") where result[relation.lowercased()] == nil {
                    result[relation.lowercased()] = target
                }
            }
        }
        return result
    }
}
