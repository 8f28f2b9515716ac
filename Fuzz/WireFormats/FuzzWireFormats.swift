// A libFuzzer target for the Demo's four wire-format decoders (`PageDecoding`, Demo/WireFormats): arbitrary
// bodies and `Link` headers must give a page or a typed `HTTPFailure.malformed`, never a trap; a page's
// neighbour cursors must be URLs the source can request again (a cursor that does not parse back would
// send the list to its first page). Format detection and the `Link` header parser get the same bytes.
//
// Input layout: the first byte picks the format (low two bits) and the URL the response came from (the
// next two); the bytes up to the first zero byte are the `Link` header, the rest is the body (with no
// zero byte, all of it is the body and there is no header).
//
// `scripts/fuzz.sh wire-formats` builds it with the Demo's sources (all but main.swift).

import Foundation

/// The URLs a response may come from: a first page, a page in the middle, an opaque cursor, an IPv6 host.
let fuzzResponseURLs = [
    "http://127.0.0.1:8080/limit-offset/items?limit=10&offset=20",
    "http://127.0.0.1:8080/page-number/items?page=3&page_size=10",
    "https://api.example.com/cursor/items?cursor=cD0yMA&page_size=10",
    "http://[::1]:9000/link-header/items?page=2&per_page=10",
].map { URL(string: $0)! }

/// Traps with `message`: libFuzzer records the input as a crash.
func wireFormatFailure(_ message: String) -> Never {
    fatalError("wire-format fuzz: \(message)")
}

/// Checks that a decoded cursor can be requested again, as the cursor sources do (`URL(string:)`).
func checkCursor(_ cursor: String?, _ name: String) {
    guard let cursor else { return }
    guard let url = URL(string: cursor) else { wireFormatFailure("the \(name) cursor \(cursor) is not a URL") }
    guard url.scheme != nil else { wireFormatFailure("the \(name) cursor \(cursor) is not absolute") }
}

/// Runs one format's decoder on `response`; a failure must be `malformed`.
func decode(format: Int, _ response: HTTPResponse) {
    do throws(HTTPFailure) {
        switch format {
        case 0:
            _ = try PageDecoding.limitOffset(response)
        case 1:
            let page = try PageDecoding.pageNumber(response, page: 3)
            if let pageCount = page.pageCount, pageCount != 3 { wireFormatFailure("page count \(pageCount)") }
        case 2:
            let page = try PageDecoding.cursor(response)
            checkCursor(page.nextCursor, "next")
            checkCursor(page.previousCursor, "previous")
        default:
            let page = try PageDecoding.linkHeader(response)
            checkCursor(page.nextCursor, "next")
            checkCursor(page.previousCursor, "previous")
        }
    } catch {
        guard case .malformed(let reason) = error, !reason.isEmpty else {
            wireFormatFailure("a decoder threw \(error), not a reason why the body is malformed")
        }
    }
}

/// The fuzz entry point: decodes the response `start` encodes with one format, then detects its format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireFormats(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let selector = Int(bytes[0])
    let rest = bytes.dropFirst()
    var headers: [String: String] = [:]
    var body = Data(rest)
    if let zero = rest.firstIndex(of: 0) {
        let header = String(decoding: rest[rest.startIndex..<zero], as: UTF8.self)
        headers[selector & 16 == 0 ? "Link" : "link"] = header
        body = Data(rest[(zero + 1)...])
        _ = LinkHeaderFormat.links(in: header)
    }
    let url = fuzzResponseURLs[(selector >> 2) % fuzzResponseURLs.count]
    let response = HTTPResponse(url: url, body: body, headers: headers)
    decode(format: selector % 4, response)
    _ = WireFormat.detect(response)
    return 0
}
