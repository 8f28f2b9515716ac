import Reactive
import Stapler
import Testing

@testable import Demo

/// The Demo's invariant checker reports what it must: it is what makes the Demo's exit status mean
/// something, so it is checked against paginators that break the invariants on purpose.
@Suite("Demo's invariant checker")
struct InvariantCheckerTests {
    typealias Checker = InvariantChecker<Product, Category?, ServerError>

    /// A synchronous offset source over `pages` (each answered once, in order, whatever the offset).
    static func source(
        _ pages: [[Int]], total: Int
    ) -> PageSource<Product, Int, Category?, ProductsPage, ServerError> {
        let served = LockedState(0)
        return .offset { _, _, _ in
            let index = served.withLock { count in
                defer { count += 1 }
                return count
            }
            let ids = index < pages.count ? pages[index] : []
            return SignalProducer(
                value: ProductsPage(items: ids.map { Product(id: $0, category: .books) }, total: total))
        }
    }

    static func run(_ pages: [[Int]], total: Int, expected: [Int]?) -> [String] {
        let paginator = ScriptedSession.ProductPaginator(source: source(pages, total: total), pageSize: 3, query: nil)
        var expectedIDs: (@Sendable (Category?) -> [Int])?
        if let expected { expectedIDs = { _ in expected } }
        let checker = Checker(query: nil, log: Log(to: .discard) { .zero }, expectedIDs: expectedIDs)
        let watching = checker.watch(paginator)
        checker.willRefresh()
        paginator.refresh()
        for _ in pages.dropFirst() { paginator.loadNextPage() }
        watching.dispose()
        return checker.violations
    }

    @Test("a list that is the expected one breaks nothing")
    func clean() {
        #expect(Self.run([[1, 2, 3], [4, 5]], total: 5, expected: [1, 2, 3, 4, 5]) == [])
        #expect(Self.run([[1, 2, 3], [4, 5]], total: 5, expected: nil) == [])
    }

    @Test("a duplicate item is reported")
    func duplicate() {
        let violations = Self.run([[1, 2, 3], [3, 4]], total: 5, expected: nil)
        #expect(violations == ["duplicate item 3"])
    }

    @Test("an item of another query, and a list that skips items, are reported")
    func staleAndGaps() {
        #expect(
            Self.run([[1, 2, 9]], total: 3, expected: [1, 2, 3])
                == ["item 9 does not belong to the current query nil"])
        #expect(
            Self.run([[1, 2, 3], [5]], total: 4, expected: [1, 2, 3, 4, 5])
                == ["the 4 items are not the first 4 of nil"])
    }

    @Test("a list opened mid-way must be consecutive items, and the first ones once its top is reached")
    func twoEnded() {
        /// Opens at offset 3 (the first page served), edits, then pages up to the second page served, if any.
        func run(_ pages: [[Int]], edit: ((ScriptedSession.ProductPaginator) -> Void)? = nil) -> [String] {
            let paginator = ScriptedSession.ProductPaginator(
                source: Self.source(pages, total: 7), pageSize: 3, query: nil, initialKey: 3)
            let checker = Checker(query: nil, log: Log(to: .discard) { .zero }, expectedIDs: { _ in Array(1...7) })
            let watching = checker.watch(paginator)
            checker.willRefresh()
            paginator.refresh()
            edit?(paginator)
            if pages.count > 1 { paginator.loadPreviousPage() }
            watching.dispose()
            return checker.violations
        }
        #expect(run([[4, 5, 6], [1, 2, 3]]) == [])
        #expect(run([[4, 6, 7]]) == ["the 3 items are not consecutive items of nil"])
        #expect(run([[4, 5, 6], [2, 3]]) == ["the 5 items are not the first 5 of nil"])
        // A row removed in the list but not on the server leaves a gap.
        #expect(run([[4, 5, 6]]) { $0.remove(at: 1) } == ["the 2 items are not consecutive items of nil"])
    }

    @Test("a generation that nobody announced is reported")
    func unannounced() {
        let paginator = ScriptedSession.ProductPaginator(source: Self.source([[1]], total: 1), pageSize: 3, query: nil)
        let checker = Checker(query: nil, log: Log(to: .discard) { .zero })
        let watching = checker.watch(paginator)
        paginator.refresh()
        watching.dispose()
        #expect(checker.violations == ["generation 1 started without a refresh"])
    }
}
