import Reactive
import Stapler
import TestSupport
import Testing

/// The refetch modes and the pages up front through the SwiftUI model, over an `async` source.
@Suite("Freshness through the model")
@MainActor
struct ModelFreshnessTests {
    @Test("a PagingModel loads pages up front, reloads every page in parallel and refetches the first page")
    func modelFreshness() async {
        let backend = AsyncRowsBackend()
        let paginator = Paginator(
            source: .pageNumber { number, size, _ async in await backend.page(number, size: size) },
            options: PagingOptions(pageSize: 10, deduplication: .by { $0 }, initialPages: 3, maxConcurrentRequests: 3))
        let model = PagingModel(paginator)
        #expect(await model.refresh() == .loaded)
        #expect(Array(model.items) == Array(0..<30))
        #expect(backend.requested.value.sorted() == [1, 2, 3])
        #expect(await model.refresh(.reloadAllInParallel(max: 2)) == .loaded)
        #expect(Array(model.items) == Array(0..<30))
        #expect(backend.requested.value.count == 6)
        #expect(await model.refresh(.firstPage) == .loaded)
        #expect(Array(model.items) == Array(0..<30))
        #expect(backend.requested.value.count == 7, "one request for the first page")
        #expect(backend.requested.value.last == 1)
    }
}
