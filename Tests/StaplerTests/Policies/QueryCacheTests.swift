import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

/// A row that knows the query it was loaded for; a class, so a test can watch it being freed.
final class QueryRow: Sendable, Equatable, CustomStringConvertible {
    let query: String
    let id: Int

    init(query: String, id: Int) {
        self.query = query
        self.id = id
    }

    static func == (lhs: QueryRow, rhs: QueryRow) -> Bool { lhs.query == rhs.query && lhs.id == rhs.id }

    var description: String { "\(query)\(id)" }
}

struct QueryRows: PaginatedResponse {
    let items: [QueryRow]
    let total: Int
}

/// A hand-driven server whose requests are keyed "query@offset".
typealias QueryServer = ManualServer<String, QueryRows, ServerError>

extension QueryServer.Request {
    /// Answers with `count` rows of the request's query from its offset, of a list of `total`.
    func answerRows(_ count: Int = 10, total: Int = 100, on queue: DispatchQueue? = nil) {
        let parts = key.split(separator: "@")
        let (query, offset) = (String(parts[0]), Int(parts[1]) ?? 0)
        succeed(
            QueryRows(items: (offset..<offset + count).map { QueryRow(query: query, id: $0) }, total: total), on: queue)
    }
}

@Suite("Query cache: stale lists while they revalidate")
struct QueryCacheTests {
    static func paginator(
        _ server: QueryServer, capacity: Int = 1
    ) -> Paginator<QueryRow, Int, String, QueryRows, ServerError> {
        Paginator(
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) }, query: "A",
            options: PagingOptions(pageSize: 10, queryCache: .last(capacity)))
    }

    @Test(
        "P43: back to a cached query: its rows at once, then one revalidation; an answer of its first visit is dropped")
    func P43_cachedQueryShowsAtOnce() throws {
        let server = QueryServer()
        let paginator = Self.paginator(server)
        paginator.refresh()
        server.last?.answerRows()
        paginator.loadNextPage()
        server.last?.answerRows()
        paginator.loadNextPage()
        let firstVisitAppend = try #require(server.last)
        #expect(firstVisitAppend.key == "A@20")
        paginator.refresh(query: "B")
        server.last?.answerRows()
        #expect(paginator.items.value.map(\.description) == (0..<10).map { "B\($0)" })
        let weakB = WeakBox(paginator.items.value[0])

        let requestsBefore = server.requests.count
        paginator.refresh(query: "A")
        #expect(paginator.items.value.map(\.description) == (0..<20).map { "A\($0)" }, "A's rows in the same call")
        #expect(paginator.snapshot.value.isStale)
        #expect(paginator.state.value == .refreshing)
        #expect(server.requests.count == requestsBefore + 1)
        #expect(server.last?.key == "A@0", "one revalidation request")
        firstVisitAppend.answerRows()
        #expect(paginator.items.value.count == 20, "the first visit's append never lands")

        paginator.refresh(query: "C")
        #expect(paginator.items.value.map(\.query) == Array(repeating: "A", count: 20), "A's rows until C's page")
        #expect(weakB.value == nil, "B's list was evicted and freed")
        server.last?.answerRows()
        #expect(paginator.items.value.map(\.query) == Array(repeating: "C", count: 10))
        #expect(!paginator.snapshot.value.isStale)
    }

    @Test("P43: an edited row stays edited in the cache; cancelling a revalidation keeps the cached list and query")
    func P43_editsAndCancel() {
        let server = QueryServer()
        let paginator = Self.paginator(server, capacity: 2)
        paginator.refresh()
        server.last?.answerRows()
        paginator.replace(at: 0, with: QueryRow(query: "A", id: 1_000))
        paginator.refresh(query: "B")
        server.last?.answerRows()
        paginator.refresh(query: "A")
        #expect(paginator.items.value.first?.id == 1_000, "the cached rows carry the edit")
        paginator.cancel()
        #expect(paginator.items.value.first?.query == "A")
        paginator.loadNextPage()
        #expect(server.last?.key == "A@10", "the edges page on with A's query")
        server.last?.answerRows()
        paginator.refresh(query: "B")
        #expect(paginator.items.value.first?.query == "B", "B was kept too (capacity 2)")
    }

    @Test("P43: cancelling a cached list's revalidation keeps it, even after a query change blanked the list before")
    func P43_cancelAfterBlanking() {
        let server = QueryServer()
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) }, query: "C",
            options: PagingOptions(pageSize: 10, policy: PagingPolicy(clearsOnQueryChange: true), queryCache: .last(2)))
        paginator.refresh()
        server.last?.answerRows()
        paginator.refresh(query: "A")
        server.last?.answerRows()
        paginator.refresh(query: "B")
        #expect(paginator.items.value.isEmpty, "B blanks A's rows")
        paginator.refresh(query: "C")
        #expect(paginator.items.value.first?.query == "C")
        paginator.cancel()
        #expect(paginator.items.value.first?.query == "C", "not A's blanked rows")
        #expect(paginator.query.value == "C")
        paginator.refresh(.around(index: 500, minimumCount: 10), query: "A")
        #expect(paginator.query.value == "C", "a refresh around a row outside the list changes nothing")
        #expect(paginator.items.value.first?.query == "C")
    }

    @Test("P43: a kept list older than maxAge is not shown: its query loads as if it was never cached")
    func P43_maxAge() {
        let server = QueryServer()
        let clock = TestScheduler()
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer("\(query)@\(offset)", size: size) }, query: "A",
            options: PagingOptions(
                pageSize: 10, policy: PagingPolicy(clock: clock), queryCache: .last(2, maxAge: .seconds(60))))
        paginator.refresh()
        server.last?.answerRows()
        paginator.refresh(query: "B")
        server.last?.answerRows()
        clock.advance(by: .seconds(59))
        paginator.refresh(query: "A")
        #expect(paginator.items.value.first?.query == "A", "59 s old: shown")
        server.last?.answerRows()
        clock.advance(by: .seconds(61))
        paginator.refresh(query: "B")
        #expect(paginator.items.value.first?.query == "A", "B was kept 61 s ago: not shown")
        #expect(!paginator.snapshot.value.isStale)
        server.last?.answerRows()
        #expect(paginator.items.value.first?.query == "B")
    }

    @Test("P43: random switches among 5 queries while 2 threads answer: rows always the current query's list")
    func P43_randomSwitches() {
        let queries = ["A", "B", "C", "D", "E"]
        for iteration in 0..<200 {
            let server = QueryServer()
            let paginator = Self.paginator(server, capacity: 2)
            let stop = Locked(false)
            let answering = DispatchGroup()
            for thread in 0..<2 {
                answering.enter()
                Thread.detachNewThread {
                    let queue = DispatchQueue(label: "answers \(thread)")
                    while !stop.value {
                        for request in server.pending.shuffled() { request.answerRows(on: queue) }
                        usleep(20)
                    }
                    answering.leave()
                }
            }
            var generator = SplitMix(seed: UInt64(iteration))
            paginator.refresh()
            var current = "A"
            for _ in 0..<5 {
                let query = queries[Int.random(in: 0..<queries.count, using: &generator)]
                current = query
                paginator.refresh(query: query)
                if Bool.random(using: &generator) { paginator.loadNextPage() }
                let rows = paginator.items.value
                #expect(Set(rows.map(\.query)).count <= 1, "rows of two queries: \(Array(rows))")
            }
            stop.value = true
            answering.wait()
            while !server.pending.isEmpty {
                for request in server.pending { request.answerRows() }
            }
            let snapshot = paginator.snapshot.value
            #expect(snapshot.state == .data)
            #expect(snapshot.items.allSatisfy { $0.query == current }, "\(Array(snapshot.items)) is not \(current)'s")
        }
    }
}

/// A weak reference to an object.
final class WeakBox<Object: AnyObject & Sendable>: @unchecked Sendable {
    // Only read on the test's thread after the writes.
    weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
