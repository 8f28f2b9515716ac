import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

/// The options value: its defaults, every check it gets when a paginator is created (each a trap naming
/// the option), and its options reaching the engine.
///
/// Each option's own behaviour is tested where that behaviour is, through `PagingOptions`: the page size
/// and the prefetch distance in `PagingHazardTests` (P17), deduplication in `PageModelTests`, the
/// delivery scheduler in `DeliveryTests`, the policy in `PolicyTests`, the bound in `MemoryBoundTests`
/// (P29), placeholders and jumps in `PlaceholderTests` (P31, P32), the query cache in `QueryCacheTests`
/// (P43). The tests here check what the one value adds.
@Suite("Paging options: one value, checked once")
struct PagingOptionsTests {
    /// The standard error of a child process an exit test ran.
    static func standardError(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    // MARK: Defaults

    @Test(
        "the defaults: no page size, half a page of prefetch, no bound, no placeholders, no cache, the default policy")
    func defaults() {
        let options = PagingOptions<Int, Int>()
        #expect(options.pageSize == nil && options.prefetchDistance == nil && options.maxPages == nil)
        #expect(options.deduplication == nil && options.deliveryScheduler == nil && options.queryCache == nil)
        #expect(options.placeholders == .off)
        #expect(options.policy.loadTimeout == nil && options.policy.noProgressLimit == nil)
        #expect(options.policy.autoRetry == nil && !options.policy.clearsOnQueryChange)
        #expect(!Placeholders.off.isShown && Placeholders.off.jumpThreshold == nil)
        #expect(Placeholders.shown.isShown && Placeholders.shown.jumpThreshold == nil)
        #expect(Placeholders.jumping(threshold: 40).isShown && Placeholders.jumping(threshold: 40).jumpThreshold == 40)

        // Only the page size given: the prefetch distance is half a page, and the slots are the items.
        let server = TestPageSource(Array(0..<40), delivery: .synchronous)
        let paginator = Paginator(source: server.offset(), options: PagingOptions(pageSize: 10))
        paginator.refresh()
        #expect(paginator.slots.value.count == 10, "no placeholders for the 30 rows not loaded")
        paginator.preload(index: 3)
        #expect(server.requestCount == 1, "row 3 is 6 rows from the end, beyond half a page")
        paginator.preload(index: 4)
        #expect(server.requests.map(\.key) == ["0", "10"])
    }

    // MARK: Each option reaches the engine

    @Test("one options value sets the page size, the prefetch distance, deduplication, delivery and placeholders")
    func everyOptionReachesTheEngine() {
        let scheduler = TestScheduler()
        // Item 4 is served twice: at offset 4 and at offset 5.
        let server = TestPageSource(Array(0..<5) + Array(4..<40), delivery: .synchronous)
        let options = PagingOptions<Int, Int>(
            pageSize: 5, prefetchDistance: 1, deduplication: .by { $0 }, deliveringOn: scheduler,
            placeholders: .shown)
        let paginator = Paginator(source: server.offset(), options: options)
        paginator.refresh()
        #expect(server.requests.map(\.pageSize) == [5])
        #expect(paginator.items.value.isEmpty, "the first page waits for the delivery scheduler")
        scheduler.advance()
        #expect(Array(paginator.items.value) == Array(0..<5))
        #expect(paginator.slots.value.count == 41, "a slot for every row of the total")
        paginator.preload(index: 2)
        #expect(server.requestCount == 1, "row 2 is 2 rows from the end, beyond the distance of 1")
        paginator.preload(index: 3)
        scheduler.advance()
        #expect(server.requests.map(\.key) == ["0", "5"])
        #expect(Array(paginator.items.value) == Array(0..<9), "the second 4 is dropped")
    }

    @Test("a query cache over an optional query: the query type is told Hashable at run time, nil included")
    func queryCacheOverAnOptionalQuery() {
        let server = TestPageSource(Array(0..<40), query: String?.self, delivery: .manual)
        let paginator = Paginator(
            source: server.offset(), query: nil, options: PagingOptions(pageSize: 10, queryCache: .last(2)))
        paginator.refresh()
        server.answerAll()
        paginator.refresh(query: "a")
        server.answerAll()
        #expect(!paginator.snapshot.value.isStale)
        paginator.refresh(query: nil)
        #expect(paginator.snapshot.value.isStale, "the list of nil shows at once from the cache")
        #expect(Array(paginator.items.value) == Array(0..<10))
        #expect(server.pendingRequests.count == 1, "and revalidates")
    }

    @Test("a restored paginator with a query cache keeps the restored list as its query's")
    func restoredListJoinsTheQueryCache() throws {
        let server = TestPageSource(Array(0..<40), query: String.self, delivery: .manual)
        let first = Paginator(source: server.offset(), pageSize: 10, query: "x")
        first.refresh()
        server.answerAll()
        let saved = try #require(first.savedState)
        let restored = try Paginator(
            restoring: saved, source: server.offset(), options: PagingOptions(pageSize: 10, queryCache: .last(2)))
        restored.refresh(query: "y")
        server.answerAll()
        #expect(!restored.snapshot.value.isStale && restored.query.value == "y")
        restored.refresh(query: "x")
        #expect(restored.snapshot.value.isStale, "the restored list of x shows at once from the cache")
        #expect(Array(restored.items.value) == Array(0..<10))
    }

    // MARK: Checked once: each trap names the option

    @Test("a page size below 1 traps, naming pageSize")
    func pageSizeBelowOneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in .never }, options: PagingOptions(pageSize: 0))
        }
        #expect(Self.standardError(result).contains("pageSize must be at least 1"))
    }

    @Test("options without a page size over a model that needs one trap, naming pageSize")
    func missingPageSizeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, String, Response, ServerError>(
                source: .offset { _, _, _ in .never }, query: "", options: PagingOptions(prefetchDistance: 2))
        }
        #expect(Self.standardError(result).contains("pageSize is required"))
    }

    @Test("a negative prefetch distance traps, naming prefetchDistance")
    func negativePrefetchDistanceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in .never }, initialKey: 20,
                options: PagingOptions(pageSize: 10, prefetchDistance: -1))
        }
        #expect(Self.standardError(result).contains("prefetchDistance must not be negative"))
    }

    @Test("a bound of no page traps, naming maxPages")
    func zeroMaxPagesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in .never }, options: PagingOptions(pageSize: 10, maxPages: 0))
        }
        #expect(Self.standardError(result).contains("maxPages must hold one page"))
    }

    @Test("a restored paginator's options are checked the same way: a bound below the prefetch windows traps")
    func restoredTooSmallBoundTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = TestPageSource(Array(0..<40), delivery: .synchronous)
            let first = Paginator(source: server.offset(), pageSize: 10)
            first.refresh()
            guard let saved = first.savedState else { return }  // exits 0: the expectation fails
            _ = try? Paginator(
                restoring: saved, source: server.offset(),
                options: PagingOptions(pageSize: 10, prefetchDistance: 8, maxPages: 2))
        }
        #expect(Self.standardError(result).contains("maxPages must hold one page"))
    }

    @Test("a negative jump threshold traps, naming jumpThreshold")
    func negativeJumpThresholdTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in .never },
                options: PagingOptions(pageSize: 10, placeholders: .jumping(threshold: -1)))
        }
        #expect(Self.standardError(result).contains("jumpThreshold -1"))
    }

    @Test("a jump over a source of its own keys (no position to compute a key from) traps, naming jumpThreshold")
    func jumpOverAKeyedSourceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Void, ServerError>(
                source: PageSource(firstKey: 0) { _ in .never },
                options: PagingOptions(pageSize: 10, placeholders: .jumping(threshold: 50)))
        }
        #expect(Self.standardError(result).contains("jumpThreshold 50 over the custom source"))
    }

    @Test("a query cache over a query that is not Hashable traps, naming queryCache")
    func queryCacheOverAnUnhashableQueryTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Paginator<Int, Int, Void, Response, ServerError>(
                source: .offset { _, _, _ in .never }, options: PagingOptions(pageSize: 10, queryCache: .last(2)))
        }
        #expect(Self.standardError(result).contains("queryCache needs a Hashable query"))
    }
}
