import Observation
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Observation model names")
@MainActor
struct PagingModelAliasTests {
    /// A numbered page of a list of 4 rows.
    struct Numbered: NumberedPageResponse {
        let items: [Int]
        var itemCount: Int? { 4 }
    }

    @Test("a stored model of a built-in page model spells its response, query and error, and loads through it")
    func typeAliases() async {
        let offset = OffsetPagingModel<Response, Void, ServerError>(
            Paginator(
                source: .offset { offset, _, _ in SignalProducer(value: page(offset, 3, total: 3)) },
                pageSize: 10))
        let numbered = PageNumberPagingModel<Numbered, String, ServerError>(
            Paginator(
                source: .pageNumber { number, size, query in
                    SignalProducer(value: Numbered(items: query == "q" ? [number, size] : []))
                },
                pageSize: 2, query: "q"))
        let cursor = CursorPagingModel<CursorPage, Void, ServerError>(
            Paginator(
                source: .cursor { cursor, _, _ in
                    SignalProducer(value: CursorPage(items: [cursor == nil ? 7 : 8], nextCursor: nil))
                },
                pageSize: 1))
        let exhaustible = ExhaustiblePagingModel<FlaggedPage, Void, ServerError>(
            Paginator(
                source: .exhaustible { index, _, _ in
                    SignalProducer(value: FlaggedPage(items: [index], isExhausted: true))
                },
                pageSize: 1))
        let single = SingleLoadPagingModel<String, Void, ServerError>(
            Paginator(source: .singleLoad { _ in SignalProducer(value: ["a", "b"]) }))

        #expect(await offset.refresh() == .loaded)
        #expect(await numbered.refresh() == .loaded)
        #expect(await cursor.refresh() == .loaded)
        #expect(await exhaustible.refresh() == .loaded)
        #expect(await single.refresh() == .loaded)
        #expect(Array(offset.items) == [0, 1, 2] && offset.isEndReached)
        #expect(Array(numbered.items) == [1, 2])
        #expect(Array(cursor.items) == [7] && cursor.isEndReached)
        #expect(exhaustible.items.count == 1 && exhaustible.isEndReached)
        #expect(Array(single.items) == ["a", "b"] && single.isEndReached)
    }
}
