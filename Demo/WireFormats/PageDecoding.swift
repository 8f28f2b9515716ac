import Foundation

/// The four wire formats' decoders: a response's body and headers turned into a page, or an
/// ``HTTPFailure/malformed(_:)`` that says what is wrong, never a trap.
///
/// They make no request and write no log, so the page sources (which log and count the failure through
/// ``HTTPClient/decoded(_:)``) and the decoder fuzz target (`scripts/fuzz.sh wire-formats`) run the same
/// code.
enum PageDecoding {
    /// A limit/offset envelope: its `count` is the total.
    static func limitOffset(_ response: HTTPResponse) throws(HTTPFailure) -> LimitOffsetFormat.Response {
        let envelope = try json(Envelope.self, from: response)
        guard let count = envelope.count else { throw .malformed("no \"count\" in a limit/offset envelope") }
        return LimitOffsetFormat.Response(items: envelope.results, total: count)
    }

    /// A page-number envelope for page `page`: no `next` means this page is the last, so the page count
    /// is its number.
    static func pageNumber(_ response: HTTPResponse, page: Int) throws(HTTPFailure) -> PageNumberFormat.Response {
        let envelope = try json(Envelope.self, from: response)
        return PageNumberFormat.Response(
            items: envelope.results, itemCount: envelope.count, pageCount: envelope.next == nil ? page : nil)
    }

    /// A cursor envelope: its `next` and `previous` links, resolved against the response's URL, are the
    /// neighbour pages' cursors.
    static func cursor(_ response: HTTPResponse) throws(HTTPFailure) -> LinkedPage {
        let envelope = try json(Envelope.self, from: response)
        return LinkedPage(
            items: envelope.results, nextCursor: envelope.nextURL(relativeTo: response.url)?.absoluteString,
            previousCursor: envelope.previousURL(relativeTo: response.url)?.absoluteString)
    }

    /// A bare JSON array of items; the `Link` header's `next` and `prev` (or `previous`) URLs, resolved
    /// against the response's URL, are the neighbour pages' cursors.
    static func linkHeader(_ response: HTTPResponse) throws(HTTPFailure) -> LinkedPage {
        let items = try json([RemoteItem].self, from: response)
        let relations = response.header("Link").map { LinkHeaderFormat.links(in: $0) } ?? [:]
        let resolve = { (link: String?) in
            link.flatMap { URL(string: $0, relativeTo: response.url)?.absoluteString }
        }
        return LinkedPage(
            items: items, nextCursor: resolve(relations["next"]),
            previousCursor: resolve(relations["prev"] ?? relations["previous"]))
    }

    /// Decodes a JSON body; a decoding error becomes ``HTTPFailure/malformed(_:)`` naming where it is.
    static func json<Value: Decodable>(_ type: Value.Type, from response: HTTPResponse) throws(HTTPFailure) -> Value {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw .malformed(explain(error))
        }
    }

    private static func explain(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(path(context.codingPath))"
        case DecodingError.keyNotFound(let key, let context):
            return "no \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context):
            return "null instead of \(type) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
