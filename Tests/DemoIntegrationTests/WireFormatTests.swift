import Foundation
import Testing

@testable import Demo

/// The pure parts of the HTTP run: the `Link` header, format detection, the page size.
@Suite("Demo's wire formats")
struct WireFormatTests {
    @Test("a Link header gives each relation's URL; the first of a repeated relation wins")
    func linkHeader() {
        let header =
            #"<https://api.example.com/items?page=2&per_page=10>; rel="next", "#
            + #"<https://api.example.com/items?page=5&per_page=10>; rel="last", "#
            + #"<https://api.example.com/items?page=1&per_page=10>; rel="prev first", <https://x/y>; rel="next""#
        #expect(
            LinkHeaderFormat.links(in: header) == [
                "next": "https://api.example.com/items?page=2&per_page=10",
                "last": "https://api.example.com/items?page=5&per_page=10",
                "prev": "https://api.example.com/items?page=1&per_page=10",
                "first": "https://api.example.com/items?page=1&per_page=10",
            ])
        #expect(LinkHeaderFormat.links(in: "<a,b>; rel=next").isEmpty == false)
        #expect(LinkHeaderFormat.links(in: "<a,b>; rel=next") == ["next": "a,b"])
        #expect(LinkHeaderFormat.links(in: "").isEmpty)
        #expect(LinkHeaderFormat.links(in: "<https://x>; title=\"no rel\"").isEmpty)
    }

    @Test(
        "the first response tells the format",
        arguments: [
            ("[{\"id\": 1}]", "http://h/items", WireFormat.linkHeader),
            (
                "{\"count\": 3, \"next\": \"http://h/items?limit=1&offset=1\", \"previous\": null, \"results\": []}",
                "http://h/items", .limitOffset
            ),
            (
                "{\"count\": 3, \"next\": \"http://h/items?page=2\", \"previous\": null, \"results\": []}",
                "http://h/items", .pageNumber
            ),
            (
                "{\"next\": \"http://h/items?cursor=cD0x\", \"previous\": null, \"results\": []}", "http://h/items",
                .cursor
            ),
            (
                "{\"count\": 1, \"next\": null, \"previous\": null, \"results\": []}", "http://h/items?limit=5",
                .limitOffset
            ),
            ("{\"count\": 1, \"next\": null, \"previous\": null, \"results\": []}", "http://h/items", .pageNumber),
        ])
    func detection(body: String, url: String, format: WireFormat) {
        let response = HTTPResponse(url: URL(string: url)!, body: Data(body.utf8), headers: [:])
        #expect(WireFormat.detect(response) == format)
    }

    @Test("a body of no known format is not detected")
    func unknownBody() {
        for body in ["{\"items\": []}", "not json", "42"] {
            let response = HTTPResponse(url: URL(string: "http://h/")!, body: Data(body.utf8), headers: [:])
            #expect(WireFormat.detect(response) == nil)
        }
    }

    @Test("the page size comes from --page-size, else the URL, else the first page")
    func pageSize() {
        let url = URL(string: "http://h/items?per_page=30")!
        #expect(WireFormat.linkHeader.pageSize(flag: 7, url: url, fallback: 20) == (7, "per_page"))
        #expect(WireFormat.linkHeader.pageSize(flag: nil, url: url, fallback: 20) == (30, "per_page"))
        #expect(
            WireFormat.pageNumber.pageSize(flag: nil, url: URL(string: "http://h/items")!, fallback: 12) == (12, nil))
        #expect(
            WireFormat.limitOffset.pageSize(flag: nil, url: URL(string: "http://h/items")!, fallback: 12) == (
                12, "limit"
            ))
    }
}
